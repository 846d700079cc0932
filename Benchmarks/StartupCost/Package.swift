// swift-tools-version:6.0
// Two probes for scripts/bench-startup: what a static Swift program costs by itself, and what
// swift-argument-parser adds to it, so orientd's own peak memory can be read against both.
// A package apart: the main package never builds it.
import PackageDescription

let package = Package(
    name: "StartupCost",
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")],
    targets: [
        // Prints its version and exits: the Swift runtime, statically linked, and nothing else.
        .executableTarget(name: "bare"),
        // The same with swift-argument-parser parsing a command as orientd's does (--version).
        .executableTarget(name: "parsing", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ]
)
