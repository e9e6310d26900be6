// The baseline of the start-up benchmark (Scripts/bench): the least a Swift executable can do.
print("Hello, world!")
