import ArgumentParser

// A second baseline for the start-up benchmark (Scripts/bench): the least a command-line tool
// built on swift-argument-parser can do, to show what the parser itself costs at start-up.
struct HelloCLI: ParsableCommand {
    @Flag(help: "Shout.") var loud = false
    @Argument(help: "Who to greet.") var name = "world"

    func run() {
        print(loud ? "HELLO, \(name.uppercased())!" : "Hello, \(name)!")
    }
}

HelloCLI.main()
