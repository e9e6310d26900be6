import AccountFlow
import Accounts
import AddContactFlow
import AddExpenseFlow
import AddFriendFlow
import AppFlow
import AuthenticatedFlow
import CreateGroupFlow
import EditGroupFlow
import ExpenseDetailFlow
import ExpensesFlow
import FlowKit
import FriendRequestsFlow
import FriendsFlow
import GroupDetailFlow
import GroupsFlow
import PickCounterpartyFlow
import QrPreviewFlow
import ReportsFlow
import SettleUpFlow
import SignInFlow
import SignUpFlow
import UnauthenticatedFlow
import SessionsFlow
import SyncFlow
import UpdateAvatarFlow
import UpdateDisplayNameFlow
import UpdateEmailFlow
import UpdatePasswordFlow
import UserPreviewFlow
import VerifyEmailFlow

// The root manifest depends on AppFlow, the root of the flow hierarchy; every other flow is
// built with it (each parent depends on its children), which is how this file can import them.

/// Every flow that can be launched on its own, in the order of the flow hierarchy.
public enum FlowCatalog {
    public static let entries: [FlowEntry] = [
        FlowEntry(
            AppFlow.self, "The whole app: your home if you are signed in, else the welcome",
            children: [UnauthenticatedFlow.self, AuthenticatedFlow.self]
        ) { container, router in
            AppFlow(dependencies: container, router: router)
        },
        FlowEntry(UnauthenticatedFlow.self, "The welcome: sign in, create an account, or quit", children: [SignInFlow.self]) { container, router in
            UnauthenticatedFlow(dependencies: container, router: router)
        },
        FlowEntry(SignInFlow.self, "Sign in with your email and password, or create an account", children: [SignUpFlow.self]) { container, router in
            SignInFlow(dependencies: container, router: router)
        },
        FlowEntry(SignUpFlow.self, "Create an account and sign in with it") { container, router in
            SignUpFlow(dependencies: container, router: router)
        },
        FlowEntry(
            AuthenticatedFlow.self, "Your home: who is signed in, its tabs, and sign out (signs in first if needed)",
            children: [ExpensesFlow.self, GroupsFlow.self, FriendsFlow.self, AccountFlow.self, AddExpenseFlow.self, SettleUpFlow.self, SyncFlow.self]
        ) { user, container, router in
            AuthenticatedFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(
            ExpensesFlow.self, "Your balances, the payments that would settle them, and the activity (signs in first if needed)",
            children: [SettleUpFlow.self, ExpenseDetailFlow.self, ReportsFlow.self]
        ) { user, container, router in
            ExpensesFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(ReportsFlow.self, "Your own spending for a range of days, by category and by month, with bars (signs in first if needed)") { user, container, router in
            ReportsFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(
            ExpenseDetailFlow.self, "One expense: who paid, each part and why, editing it as saved, deleting it (choose which first; signs in first if needed)",
            children: [AddExpenseFlow.self]
        ) { user, container, router in
            ExpenseDetailFlow(user: user.id, expense: nil, dependencies: container, router: router)
        },
        FlowEntry(
            AddExpenseFlow.self, "Add an expense: whom it is with, the amount, who paid and how it is split (signs in first if needed)",
            children: [PickCounterpartyFlow.self]
        ) { user, container, router in
            AddExpenseFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(
            PickCounterpartyFlow.self, "Choose friends and contacts to share an expense with, or add a new contact (signs in first if needed)",
            children: [AddContactFlow.self]
        ) { user, container, router in
            PickCounterpartyFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(AddContactFlow.self, "Add a contact: someone without an account, by name and optionally an email (signs in first if needed)") { user, container, router in
            AddContactFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(SettleUpFlow.self, "Record a payment that settles a balance, whole or in part (signs in first if needed)") { user, container, router in
            SettleUpFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(
            GroupsFlow.self, "Your groups with where you stand in each, making one, and the archived ones (signs in first if needed)",
            children: [CreateGroupFlow.self, GroupDetailFlow.self]
        ) { user, container, router in
            GroupsFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(
            CreateGroupFlow.self, "Make a group of friends and contacts: a trip, a home, a couple or a team (signs in first if needed)",
            children: [AddContactFlow.self]
        ) { user, container, router in
            CreateGroupFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(
            GroupDetailFlow.self, "One group: its members and balances, the payments that would settle it, its expenses (choose which first; signs in first if needed)",
            children: [ExpenseDetailFlow.self, SettleUpFlow.self, EditGroupFlow.self]
        ) { user, container, router in
            GroupDetailFlow(user: user.id, group: nil, dependencies: container, router: router)
        },
        FlowEntry(
            EditGroupFlow.self, "Change a group: name, kind, currency, simplifying, members; leave or archive it (choose which first; signs in first if needed)"
        ) { user, container, router in
            EditGroupFlow(user: user.id, group: nil, dependencies: container, router: router)
        },
        FlowEntry(
            FriendsFlow.self, "Your friends with your balance with each, adding one, and requests waiting (signs in first if needed)",
            children: [AddFriendFlow.self, FriendRequestsFlow.self, UserPreviewFlow.self]
        ) { user, container, router in
            FriendsFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(AddFriendFlow.self, "Ask someone to be your friend by friend code or email, or add a contact without an account (signs in first if needed)") { user, container, router in
            AddFriendFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(FriendRequestsFlow.self, "Friend requests: accept, decline or block those asking you, take back yours, unblock (signs in first if needed)") { user, container, router in
            FriendRequestsFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(
            UserPreviewFlow.self,
            "One friend: balances, shared expenses, removing or blocking them, linking a contact (choose whom first; signs in first if needed)"
        ) { user, container, router in
            UserPreviewFlow(user: user, friend: nil, dependencies: container, router: router)
        },
        FlowEntry(
            AccountFlow.self, "Your account: name, email, friend code and theme, and changing them (signs in first if needed)",
            children: [UpdateDisplayNameFlow.self, UpdateEmailFlow.self, UpdatePasswordFlow.self, UpdateAvatarFlow.self, QrPreviewFlow.self, SessionsFlow.self, VerifyEmailFlow.self]
        ) { user, container, router in
            AccountFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(UpdateDisplayNameFlow.self, "Change the name friends see (signs in first if needed)") { user, container, router in
            UpdateDisplayNameFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(UpdateEmailFlow.self, "Change the email you sign in with; asks your password (signs in first if needed)") { user, container, router in
            UpdateEmailFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(SessionsFlow.self, "Where you are signed in: each session, to end one or all others (signs in first if needed)") { user, container, router in
            SessionsFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(
            SyncFlow.self, "What is not on your server yet: sync now, drop what it refused, keep theirs or make yours again (signs in first if needed)"
        ) { user, container, router in
            SyncFlow(user: user.id, dependencies: container, router: router)
        },
        FlowEntry(VerifyEmailFlow.self, "Prove your email with the code mailed to it, or have a new one sent (signs in first if needed)") { user, container, router in
            VerifyEmailFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(UpdateAvatarFlow.self, "Change your avatar: a PNG or JPEG picture, your initials on a colour, or none (signs in first if needed)") { user, container, router in
            UpdateAvatarFlow(user: user, dependencies: container, router: router)
        },
        FlowEntry(QrPreviewFlow.self, "Your friend code as a QR code to scan, and as text (signs in first if needed)") { user, _, router in
            QrPreviewFlow(user: user, router: router)
        },
        FlowEntry(UpdatePasswordFlow.self, "Change your password and sign out your other sessions (signs in first if needed)") { user, container, router in
            UpdatePasswordFlow(user: user, dependencies: container, router: router)
        },
    ]

    /// The entry with this name, compared without case.
    public static func entry(named name: String) -> FlowEntry? {
        entries.first { $0.name.lowercased() == name.lowercased() }
    }
}
