import FlowsAPI
import FlowsWire
import Groups
import Primitives
import PrimitivesRemote

/// The Groups operations of the contract, each declared once: flows-server serves them and
/// ``RemoteGroupsService`` calls them. (A group's ledger is the Expenses area's: `ExpensesAPI`.)
///
/// Those of the service's operations tagged `/// - Contract:` are declared from the contract in
/// `GroupsAPI+Contract.swift`, which `Scripts/generate-services` writes; the rest are here.
public enum GroupsAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, GroupsError>

    public static let getGroup = Call<GroupID, Group>(
        "getGroup", .get, "/groups/{groupId}", request: .path("groupId", Wire.groupID), response: .json(Wire.group), problems: problems
    )
    public static let addGroupMembers = Call<(GroupID, Set<UserID>), Group>(
        "addGroupMembers", .post, "/groups/{groupId}/members", request: .path("groupId", Wire.groupID, body: Wire.userIDs),
        response: .json(Wire.group), problems: problems
    )
    public static let removeGroupMember = Call<(GroupID, UserID), Group>(
        "removeGroupMember", .delete, "/groups/{groupId}/members/{personId}",
        request: .path("groupId", Wire.groupID, "personId", Wire.userID), response: .json(Wire.group), problems: problems
    )
    public static let setGroupArchived = Call<(GroupID, Bool), Group>(
        "setGroupArchived", .put, "/groups/{groupId}/archived", request: .path("groupId", Wire.groupID, body: Wire.archiving),
        response: .json(Wire.group), problems: problems
    )

    /// Groups' errors as the contract's refusals, and back.
    public static let problems = ProblemTable<GroupsError>(
        problem: { error in
            switch error {
            case .invalid(.name(let problem)): APIProblem(problem, field: "/name")
            case .invalid(.tooManyMembers): APIProblem(.unprocessableContent, .tooManyMembers, error.message, details: .init(limit: Int64(Group.memberLimit)))
            case .notFound(let id): APIProblem(.notFound, .groupNotFound, error.message, details: .init(groupId: id.rawValue))
            case .unknownPeople(let people):
                APIProblem(.unprocessableContent, .unknownPeople, error.message, details: .init(people: people.map(\.rawValue)))
            case .notMember(let person): APIProblem(.notFound, .notMember, error.message, details: .init(people: [person.rawValue]))
            case .memberNotSettled(let person, let balances):
                APIProblem(.conflict, .memberNotSettled, error.message, details: .init(balances: balances.map(Wire.money.write), people: [person.rawValue]))
            case .groupNotSettled: APIProblem(.conflict, .groupNotSettled, error.message)
            case .lastMember: APIProblem(.conflict, .lastMember, error.message)
            case .archived: APIProblem(.conflict, .groupArchived, error.message)
            case .idTaken(let id): APIProblem(.conflict, .idTaken, error.message, details: .init(groupId: id.rawValue))
            case .refused(let rule): .refused(rule)
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            }
        },
        failure: { failure in
            if let problem = failure.problem(DisplayName.Problem.self) { return .invalid(.name(problem)) }
            let details = failure.details
            let person = details?.people?.first.map(UserID.init(rawValue:))
            switch failure.code {
            case .tooManyMembers?: return .invalid(.tooManyMembers)
            case .groupNotFound?: return .notFound(GroupID(rawValue: details?.groupId ?? ""))
            case .unknownPeople?: return .unknownPeople((details?.people ?? []).map(UserID.init(rawValue:)))
            case .notMember?: if let person { return .notMember(person) }
            case .memberNotSettled?: if let person { return .memberNotSettled(person, balances: RemoteFailure.money(details?.balances)) }
            case .groupNotSettled?: return .groupNotSettled
            case .lastMember?: return .lastMember
            case .groupArchived?: return .archived
            case .idTaken?: if let id = details?.groupId { return .idTaken(GroupID(rawValue: id)) }
            case .refused?: return .refused(details?.reason ?? failure.message)
            case .storeUnavailable?: return .storeUnavailable(failure.message)
            case _ where failure.isSignedOut: return .signedOut
            default: break
            }
            return .serverUnreachable(failure.description)
        }
    )
}

// MARK: - Groups' values in the contract's form

extension Wire {
    /// `archived=true` for the archived groups; absent or `false` for the open ones.
    static var archivedQuery: WireValue<Bool, [String: String]> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                switch query["archived"] {
                case nil, "false": return false
                case "true": return true
                default: throw .invalidRequest("The query parameter \"archived\" is true or false.", field: "archived")
                }
            },
            write: { $0 ? ["archived": "true"] : [:] }
        )
    }

    static var groupKind: WireValue<GroupKind, Components.Schemas.GroupKind> {
        WireValue(read: { kind, _ in GroupKind(rawValue: kind.rawValue) ?? .other }, write: { Components.Schemas.GroupKind(rawValue: $0.rawValue) ?? .other })
    }

    /// A group's settings as a request carries them; the name no longer than the contract's limit.
    static var groupSettings: WireValue<GroupSettings, Components.Schemas.GroupSettings> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                GroupSettings(
                    name: try text(atMost: WireText.Limit.displayName).read(wire.name, "/name"), kind: try groupKind.read(wire.kind, "/kind"),
                    currency: try currency.read(wire.currency, "/currency"), simplifyDebts: wire.simplifyDebts
                )
            },
            write: { .init(name: $0.name, kind: groupKind.write($0.kind), currency: $0.currency.code, simplifyDebts: $0.simplifyDebts) }
        )
    }

    static var groupDraft: WireValue<GroupDraft, Components.Schemas.GroupDraft> {
        WireValue(
            read: { wire, _ throws(APIProblem) in
                var members: [UserID] = []
                for (index, member) in wire.members.enumerated() { members.append(try userID.read(member, "/members/\(index)")) }
                return GroupDraft(
                    settings: GroupSettings(
                        name: try text(atMost: WireText.Limit.displayName).read(wire.name, "/name"), kind: try groupKind.read(wire.kind, "/kind"),
                        currency: try currency.read(wire.currency, "/currency"), simplifyDebts: wire.simplifyDebts
                    ),
                    members: members
                )
            },
            write: { draft in
                .init(
                    name: draft.settings.name, kind: groupKind.write(draft.settings.kind), currency: draft.settings.currency.code,
                    simplifyDebts: draft.settings.simplifyDebts, members: draft.members.map(\.rawValue)
                )
            }
        )
    }

    public static var group: WireValue<Group, Components.Schemas.Group> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                Group(
                    id: try groupID.read(wire.id, "\(field)/id"), name: wire.name, kind: try groupKind.read(wire.kind, "\(field)/kind"),
                    currency: try currency.read(wire.currency, "\(field)/currency"), simplifyDebts: wire.simplifyDebts,
                    members: wire.members.map(UserID.init(rawValue:)), archived: wire.archived, createdBy: UserID(rawValue: wire.createdBy)
                )
            },
            write: { group in
                .init(
                    id: group.id.rawValue, name: group.name, kind: groupKind.write(group.kind), currency: group.currency.code,
                    simplifyDebts: group.simplifyDebts, members: group.members.map(\.rawValue), archived: group.archived,
                    createdBy: group.createdBy.rawValue
                )
            }
        )
    }

    static var archiving: WireValue<Bool, Components.Schemas.ArchiveGroupRequest> {
        WireValue(read: { wire, _ in wire.archived }, write: { .init(archived: $0) })
    }
}
