import Foundation
import FlowsAPI
import Friends
import FriendsRemote

extension EndpointRoutes {
    /// Friends' operations (``FriendsAPI``) that are more than one call of the service as they
    /// stand (the others are ``contract(_:)``'s).
    /// Each call that looks an account up by friend code or email counts against the look-up
    /// limits first.
    func friends(_ friends: any FriendsService, limits: RequestLimits) throws {
        try serve(FriendsAPI.addFriend) { query, user in
            try await limits.lookUp(by: user)
            return try await friends.add(query, by: user)
        }
        try serve(FriendsAPI.findFriend) { query, user in
            try await limits.lookUp(by: user)
            return try await friends.find(query, for: user)
        }
        try serve(FriendsAPI.getFriend) { id, user in
            guard let friend = try await friends.friend(id, of: user) else { throw FriendsError.notAFriend }
            return friend
        }
        try serve(FriendsAPI.addContact) { input, user in
            let (draft, id) = input
            // Whether an email has an account is a look-up too.
            if !(draft.email ?? "").trimmingCharacters(in: .whitespaces).isEmpty { try await limits.lookUp(by: user) }
            return try await friends.addContact(name: draft.name, email: draft.email, as: id, by: user)
        }
        try serve(FriendsAPI.linkContact) { input, user in
            try await limits.lookUp(by: user)
            return try await friends.link(input.0, to: input.1, by: user)
        }
        try serve(FriendsAPI.previewContactLink) { input, user in
            try await limits.lookUp(by: user)
            return try await friends.linkTarget(input.0, to: input.1, by: user)
        }
        try serve(FriendsAPI.listFriendsAmong) { ids, user in try await friends.friends(among: ids, of: user) }
        try serve(FriendsAPI.listNames) { ids, user in try await friends.names(of: ids, for: user) }
    }
}
