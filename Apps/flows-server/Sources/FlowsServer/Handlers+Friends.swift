import FlowsAPI
import Friends
import Primitives

extension Handlers {
    func listFriends(_ input: Operations.ListFriends.Input) async throws -> Operations.ListFriends.Output {
        let user = try user
        let list = try await friends { () async throws(FriendsError) in try await services.friends.friends(of: user) }
        return .ok(.init(body: .json(.init(friends: list.map(Components.Schemas.Friend.init)))))
    }

    func addFriend(_ input: Operations.AddFriend.Input) async throws -> Operations.AddFriend.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let query = try Read.query(body)
        let friend = try await friends { () async throws(FriendsError) in try await services.friends.add(query, by: user) }
        return .created(.init(body: .json(.init(friend))))
    }

    func findFriend(_ input: Operations.FindFriend.Input) async throws -> Operations.FindFriend.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let query = try Read.query(body)
        let friend = try await friends { () async throws(FriendsError) in try await services.friends.find(query, for: user) }
        return .ok(.init(body: .json(.init(friend))))
    }

    func getFriend(_ input: Operations.GetFriend.Input) async throws -> Operations.GetFriend.Output {
        let user = try user
        let id = try Read.userID(input.path.friendId, field: "friendId")
        let friend = try await friends { () async throws(FriendsError) in try await services.friends.friend(id, of: user) }
        guard let friend else { throw APIProblem(FriendsError.notAFriend) }
        return .ok(.init(body: .json(.init(friend))))
    }

    func removeFriend(_ input: Operations.RemoveFriend.Input) async throws -> Operations.RemoveFriend.Output {
        let user = try user
        let id = try Read.userID(input.path.friendId, field: "friendId")
        try await friends { () async throws(FriendsError) in try await services.friends.remove(id, by: user) }
        return .noContent(.init())
    }

    func addContact(_ input: Operations.AddContact.Input) async throws -> Operations.AddContact.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let name = try Read.text(body.name, atMost: Read.Limit.displayName, field: "/name")
        let email = try body.email.map { email throws(APIProblem) in try Read.text(email, atMost: Read.Limit.email, field: "/email") }
        let contact = try await friends { () async throws(FriendsError) in
            try await services.friends.addContact(name: name, email: email, by: user)
        }
        return .created(.init(body: .json(.init(contact))))
    }

    func claimContacts(_ input: Operations.ClaimContacts.Input) async throws -> Operations.ClaimContacts.Output {
        let user = try user
        let owners = try await friends { () async throws(FriendsError) in try await services.friends.claimContacts(for: user) }
        return .ok(.init(body: .json(.init(ids: owners.map(\.rawValue)))))
    }

    func linkContact(_ input: Operations.LinkContact.Input) async throws -> Operations.LinkContact.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let contact = try Read.userID(input.path.contactId, field: "contactId")
        let query = try Read.query(body)
        let friend = try await friends { () async throws(FriendsError) in
            try await services.friends.link(contact, to: query, by: user)
        }
        return .ok(.init(body: .json(.init(friend))))
    }

    func previewContactLink(_ input: Operations.PreviewContactLink.Input) async throws -> Operations.PreviewContactLink.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let contact = try Read.userID(input.path.contactId, field: "contactId")
        let query = try Read.query(body)
        let friend = try await friends { () async throws(FriendsError) in
            try await services.friends.linkTarget(contact, to: query, by: user)
        }
        return .ok(.init(body: .json(.init(friend))))
    }

    func listFriendsAmong(_ input: Operations.ListFriendsAmong.Input) async throws -> Operations.ListFriendsAmong.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let ids = try Read.userIDs(body.ids, field: "/ids")
        let found = try await friends { () async throws(FriendsError) in try await services.friends.friends(among: ids, of: user) }
        return .ok(.init(body: .json(.init(ids: found.map(\.rawValue).sorted()))))
    }

    func listNames(_ input: Operations.ListNames.Input) async throws -> Operations.ListNames.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let ids = try Read.userIDs(body.ids, field: "/ids")
        let names = try await friends { () async throws(FriendsError) in try await services.friends.names(of: ids, for: user) }
        let list = names.map { Components.Schemas.PersonName(id: $0.key.rawValue, name: $0.value.value) }.sorted { $0.id < $1.id }
        return .ok(.init(body: .json(.init(names: list))))
    }
}
