// swift-tools-version:6.2
// orientd: device orientation for Linux, from an IIO accelerometer to any number of subscribers.
// Data flows one way: sensor (AccelerometerIO) → classifier (OrientationCore) → hub (OrientdHub) → clients.
import PackageDescription

let package = Package(
    name: "orientd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "orientd", targets: ["orientd"]),
        .executable(name: "orientctl", targets: ["orientctl"]),
        .library(name: "OrientdClient", targets: ["OrientdClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config.
        .systemLibrary(name: "CLibIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CLibUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CLibSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CLibUmockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),

        // The only code that sees libiio, libudev or sd-bus types (and the kernel's evdev ioctls);
        // Swift gets opaque handles and C strings.
        .target(name: "COrientdShim", dependencies: ["CLibIIO", "CLibUdev", "CLibSystemd"]),

        // Pure core: vectors, mount matrix, calibration, orientation, classifier. No I/O, no clocks.
        .target(name: "OrientationCore"),

        // The daemon's threads: a thread that can be woken and stopped, the event thread that
        // sleeps in poll() on descriptors, the monotonic clock, the one lock a thread waits on
        // (Guarded) and the values one thread owns (ThreadConfined). No sensor, no bus: orientctl
        // and the client library use them too. Its C part names threads and routes Swift
        // concurrency's jobs, with libc alone.
        .target(name: "CDaemonThreads"),
        .target(name: "DaemonThreads", dependencies: ["CDaemonThreads"]),

        // Sensor layer: discovery and reading of accelerometers through libiio.
        .target(name: "AccelerometerIO", dependencies: [
            "COrientdShim", "DaemonThreads", "OrientationCore",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy), for desktops that know only
        // it: a view of the hub, as the socket is.
        .target(name: "SensorProxy", dependencies: [
            "COrientdShim", "DaemonThreads", "OrientationCore", "OrientdHub", "OrientdProtocol",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Wire protocol v1, shared by the daemon and its clients.
        .target(name: "OrientdProtocol", dependencies: ["OrientationCore"]),

        // The notification hub: Unix socket server, requests, subscriptions.
        .target(name: "OrientdHub", dependencies: [
            "OrientdProtocol", "OrientationCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // The config file (INI like systemd's, with drop-ins) and the table of every setting it and the flags share.
        .target(name: "OrientdConfiguration", dependencies: [
            "AccelerometerIO", "OrientationCore",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Swift client library used by orientctl and by applications: OrientationClient (async,
        // reconnecting) over OrientdClient (one blocking connection).
        .target(name: "OrientdClient", dependencies: ["DaemonThreads", "OrientdProtocol", "OrientationCore"]),

        // The daemon; run under the name orientctl, the client (OrientdMain): the package installs
        // one executable under both names, one copy of the Swift runtime.
        .executableTarget(name: "orientd", dependencies: [
            "AccelerometerIO", "CDaemonThreads", "CLibSystemd", "DaemonThreads", "OrientationCore", "OrientdConfiguration", "OrientdHub", "OrientdProtocol", "SensorProxy",
            "OrientctlCommand",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),
        // Turning the screen with the device (orientctl rotate): the pure decisions and each
        // compositor's commands. No I/O.
        .target(name: "ScreenRotation", dependencies: ["OrientationCore"]),

        // The runtime of 'orientctl rotate' (its threads, the compositor backends, the loop that
        // carries out ScreenRotator's decisions) and orientctl's terminal output.
        .target(name: "RotateRuntime", dependencies: ["DaemonThreads", "OrientdClient", "OrientdProtocol", "OrientationCore", "ScreenRotation"]),

        // orientctl's commands, a library so that the orientd executable can be orientctl too.
        .target(name: "OrientctlCommand", dependencies: [
            "DaemonThreads", "OrientdClient", "OrientdProtocol", "OrientationCore", "RotateRuntime", "ScreenRotation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "orientctl", dependencies: ["OrientctlCommand"]),

        // The client library's runnable example (README, "From Swift").
        .executableTarget(name: "orientation-example", dependencies: ["OrientdClient"], path: "Examples/OrientationExample"),

        // Test-only wrapper over libumockdev, so tests can build emulated sysfs/udev devices.
        .target(name: "CUmockdevShim", dependencies: ["CLibUmockdev"]),

        // The scenario corpus: generated traces with the changes each must produce (docs/conventions.md, "The scenario corpus").
        .target(name: "ScenarioCorpus", dependencies: ["OrientationCore"], path: "Tests/ScenarioCorpus"),

        // An IIO accelerometer emulated with umockdev, for the integration tests and the benchmark.
        .target(name: "EmulatedSensor", dependencies: ["CUmockdevShim", "OrientationCore"], path: "Tests/EmulatedSensor"),
        // Child processes with their output lines stamped on arrival, for the tests and the benchmark.
        .target(name: "ProcessHarness", dependencies: [
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Tests/ProcessHarness"),

        // The benchmark: orientd against iio-sensor-proxy on one emulated sensor (scripts/bench).
        .executableTarget(name: "orientd-bench", dependencies: [
            "EmulatedSensor", "OrientdClient", "OrientdProtocol", "OrientationCore", "ProcessHarness", "ScenarioCorpus", "SensorProxy",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Benchmarks/OrientdBench"),
        // The fan-out benchmark: one orientd, 1 to 10 000 subscribers (scripts/bench-fanout).
        // Its subscribers are read through epoll, which Glibc's Swift module leaves out.
        .systemLibrary(name: "CEpoll", path: "Benchmarks/CEpoll"),
        .systemLibrary(name: "CSdBus", path: "Benchmarks/CSdBus"),
        .executableTarget(name: "orientd-fanout", dependencies: [
            "CEpoll", "CSdBus", "EmulatedSensor", "OrientationCore", "OrientdClient", "ProcessHarness", "SensorProxy",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ], path: "Benchmarks/OrientdFanout"),

        .testTarget(name: "OrientationCoreTests", dependencies: ["OrientationCore", "ScenarioCorpus"]),
        .testTarget(name: "DaemonThreadsTests", dependencies: ["CDaemonThreads", "DaemonThreads"]),
        .testTarget(name: "AccelerometerIOTests", dependencies: ["AccelerometerIO", "OrientationCore"]),
        .testTarget(name: "SensorProxyTests", dependencies: ["SensorProxy", "OrientationCore", "OrientdHub", "OrientdProtocol"]),
        .testTarget(name: "OrientdProtocolTests", dependencies: ["OrientdProtocol"]),
        .testTarget(name: "ScreenRotationTests", dependencies: ["ScreenRotation", "OrientationCore"]),
        // orientctl rotate's loop in process, on a stand-in compositor.
        .testTarget(name: "RotateRuntimeTests", dependencies: ["RotateRuntime", "ScreenRotation", "OrientationCore"]),
        // The hub in process: connections through NIO's EmbeddedChannel, no sockets, no sensor.
        .testTarget(name: "OrientdHubTests", dependencies: [
            "OrientdHub", "OrientdProtocol", "OrientationCore", "ProcessHarness",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // The daemon's wiring in process: the real pipeline, hub and D-Bus machine, no thread or bus.
        .testTarget(name: "OrientdWiringTests", dependencies: [
            "AccelerometerIO", "OrientationCore", "OrientdHub", "OrientdProtocol", "SensorProxy", .target(name: "orientd"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        .testTarget(name: "OrientdConfigurationTests", dependencies: ["AccelerometerIO", "OrientdConfiguration", "OrientationCore"]),
        // The real orientd on Debian's own kernel under qemu, its drivers fed from user space.
        .testTarget(name: "KernelTierTests"),
        .testTarget(name: "OrientdIntegrationTests", dependencies: [
            "EmulatedSensor", "OrientdClient", "OrientdProtocol", "OrientationCore", "ProcessHarness", "RotateRuntime", "ScenarioCorpus", "ScreenRotation",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .target(name: "orientd"), .target(name: "orientctl"), .target(name: "orientation-example"),
        ]),
    ]
)
