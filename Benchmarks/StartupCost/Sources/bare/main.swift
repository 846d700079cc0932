// The baseline: a static Swift program that prints its version.
if CommandLine.arguments.contains("--version") { print("0.1.0") }
