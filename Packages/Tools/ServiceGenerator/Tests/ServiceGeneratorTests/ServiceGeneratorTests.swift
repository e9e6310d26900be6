import Testing

@testable import generate_services

/// The list of areas as the generator reads it, and what it refuses.
@Suite struct AreaListTests {
    @Test func eachLineSaysHowItsAreaIsBuilt() throws {
        let list = try areas(in: """
            # a comment, then a blank line

            Accounts: by hand
            Preferences: replicated
            Notes
            Reminders: live(store, random, now)
            """)
        #expect(list.map(\.name) == ["Accounts", "Preferences", "Notes", "Reminders"])
        #expect(list.map(\.byHand) == [true, false, false, false])
        #expect(list.map(\.replicated) == [false, true, false, false])
        #expect(list.map(\.live) == [["store"], ["store"], ["store"], ["store", "random", "now"]])
        #expect(list[2].property == "notes")
    }

    @Test(arguments: [
        ("notes", "line 1: an area is named in UpperCamelCase"),
        ("Notes\nNotes", "line 2: Notes is listed twice"),
        ("Notes: live(store, clock)", "not clock"),
        ("Notes: by hand, replicated", "an area wired by hand says nothing else"),
        ("Notes: by hand, live(store)", "an area wired by hand says nothing else"),
        ("Notes: offline", "`offline` is none of"),
    ])
    func aLineItCannotReadIsNamed(line: String, message: String) {
        #expect {
            _ = try areas(in: line)
        } throws: { error in
            String(describing: error).contains(message)
        }
    }

    @Test func aListedAreaIsBuiltInEveryPlace() throws {
        let list = try areas(in: "Accounts: by hand\nNotes: live(store, now)\nPreferences: replicated")
        let local = localAreas(list)
        #expect(local.contains("public var notes: any NotesService { areas.notes }"))
        #expect(local.contains("notes: LiveNotesService(store: stores.notes, now: now)"))
        #expect(local.contains("notes: SQLiteNotesStore(database: database)"))
        // Every area's migrations, in the order of the list, the areas wired by hand too.
        let migrations = ["AccountsSchema", "NotesSchema", "PreferencesSchema"].compactMap { local.range(of: "\($0).registerMigrations")?.lowerBound }
        #expect(migrations.count == 3 && migrations == migrations.sorted())
        #expect(!local.contains("public var accounts"))

        let app = appAreas(list)
        #expect(app.contains("notes: notes,") || app.contains("notes: notes\n"))
        #expect(app.contains("replicas.map { ReplicatedPreferences(server: preferences, replicas: $0) } ?? preferences"))

        let server = serverAreas(list)
        #expect(server.contains("notes: PostgresNotesStore(database: database)"))
        #expect(server.contains("AccountsPostgresSchema.migrations\n        + NotesPostgresSchema.migrations\n        + PreferencesPostgresSchema.migrations"))
        #expect(fixtureAreas(list).contains("set { areas.notes = newValue }"))
        #expect(servicesManifest(list).contains(#".package(path: "../Domain/Notes"),"#))
    }

    @Test func noListedAreaStillCompilesToEmptyServices() throws {
        let local = localAreas(try areas(in: "Accounts: by hand"))
        #expect(local.contains("public init() {\n    }"))
        #expect(local.contains("AreaServices()"))
    }
}

/// The `Wire` values written from the contract's one-property schemas.
@Suite struct WireValueTests {
    static let document = """
        paths:
          /x:
            get:
              operationId: x
        components:
          schemas:
            Friend:
              type: object
              required: [id]
              properties:
                id:
                  type: string
            DisplayName:
              type: string
              description: |
                A name: maxLength: 5 in a description is not a limit.
              maxLength: 200
            FriendList:
              type: object
              required: [friends]
              properties:
                friends:
                  type: array
                  items:
                    $ref: '#/components/schemas/Friend'
            RenameRequest:
              type: object
              additionalProperties: false
              required: [name]
              properties:
                name:
                  $ref: '#/components/schemas/DisplayName'
            Count:
              type: object
              required: [count]
              properties:
                count:
                  type: integer
                  format: int64
            Pair:
              type: object
              required: [a, b]
              properties:
                a:
                  type: string
                b:
                  type: string
        """

    let schemas = contractSchemas(Self.document)

    @Test func theSchemasAreReadAsWritten() {
        #expect(schemas["DisplayName"]?.maxLength == 200)
        #expect(schemas["FriendList"]?.properties.first?.itemsReference == "Friend")
        #expect(schemas["RenameRequest"]?.properties.first?.reference == "DisplayName")
        #expect(schemas["Pair"]?.required == ["a", "b"])
    }

    @Test func aListOfOneSchemaIsItsValuesList() throws {
        let value = try wireValue(of: "FriendList", as: "[Friend]", schemas: schemas, declared: ["friend"], for: "test")
        #expect(value.contains(#"Wire.friend.list().wrapped("friends", in: { .init(friends: $0) }, { $0.friends })"#))
    }

    @Test func aTextIsCheckedAgainstItsSchemasLimit() throws {
        let value = try wireValue(of: "RenameRequest", as: "String", schemas: schemas, declared: [], for: "test")
        #expect(value.contains(#"try text(atMost: 200).read(wire.name, "\(field)/name")"#))
    }

    @Test func aNumberIsClamped() throws {
        let value = try wireValue(of: "Count", as: "Int", schemas: schemas, declared: [], for: "test")
        #expect(value.contains("Int(clamping: wire.count)"))
    }

    @Test(arguments: [("Pair", "String"), ("FriendList", "[Friend]"), ("Count", "String")])
    func anotherShapeIsLeftToBeWrittenByHand(schema: String, value: String) {
        // Two properties; a list whose items have no `Wire` value; a number the call takes as text.
        #expect {
            _ = try wireValue(of: schema, as: value, schemas: schemas, declared: [], for: "getIt")
        } throws: { error in
            String(describing: error).contains("getIt: `Wire.\(schema.prefix(1).lowercased() + schema.dropFirst())` for the contract's \(schema) is declared nowhere")
        }
    }
}
