import ArgumentParser
import CDaemonThreads
import Glibc
import NIOCore
import NIOPosix
import OrientctlCommand
import OrientdConfiguration
import OrientdProtocol

/// The process's entry: Swift concurrency runs on the event loops, then the command runs.
@main
enum OrientdMain {
    static func main() async {
        // Installed, orientctl is this executable under another name.
        if CommandLine.arguments.first.map({ $0.split(separator: "/").last == "orientctl" }) == true {
            Orientctl.main()
            return
        }
        // Two event loops at most: 10 000 subscribers have a change within 100 ms with two
        // (scripts/bench-fanout: 91 ms p99 on 2 cores) but not with one (147 ms); an idle loop
        // never wakes, and one per core would be 8 threads on a phone. Lock saves are rare.
        NIOSingletons.groupLoopCountSuggestion = min(System.coreCount, 2)
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
        // Swift concurrency's jobs (the service group, signals) run on those loops rather than on
        // libdispatch's worker pool, whose monitor timer would wake a still daemon once a second
        // (delayed jobs, Task.sleep, still go through libdispatch and start that timer: only the stop's
        // timeouts use them; the start's deadline is an event loop's timer, BoundedStart.swift).
        // NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        // does this through dlsym, which finds nothing in the static release build; the shim sets
        // the same hook. It must happen before the first job is enqueued, hence here.
        let routed = orientd_route_global_jobs(runOnAnEventLoop) == 1
        // What systemd starts (ExecStart=/usr/bin/orientd): no arguments means every default, so
        // the daemon starts without building the argument parser's model of its 50 options
        // (2 MiB of memory the daemon would keep resident for nothing).
        guard CommandLine.arguments.count > 1 else {
            do {
                try await Daemon(DaemonInvocation()).run()
            } catch let exit as DaemonExit {
                Glibc.exit(exit.status)
            } catch {
                var line = "Error: \(error)\n"  // as the argument parser reports what a command throws
                line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
                Glibc.exit(1)
            }
            return
        }
        if !routed {
            var line = "orientd: notice: Swift concurrency's global executor was set by someone else; libdispatch's timer will wake orientd once a second\n"
            line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        await Orientd.main()
    }
}

/// Where the runtime's hook sends a job of the global executor: one of NIO's loops (the one this
/// thread runs, when it is one of them). Not isolated to any actor: it runs on whichever thread enqueues.
private func runOnAnEventLoop(_ job: UnsafeMutableRawPointer?) {
    MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(unsafeBitCast(job, to: UnownedJob.self)))
}

struct Orientd: AsyncParsableCommand {
    static let version = OrientdVersion.current

    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Publish the device orientation from an IIO accelerometer to local programs.",
        discussion: """
            orientd reads the accelerometer that follows the screen (through libiio), decides the \
            device orientation (portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, \
            faceDown, unknown) without flapping, and publishes it on a Unix socket, one JSON object \
            per line (see docs/protocol.md). Query it with 'orientctl get'; follow it with \
            'orientctl monitor'. With --sensor-proxy it also serves iio-sensor-proxy's D-Bus \
            interface (net.hadess.SensorProxy: orientation, ambient light, proximity, compass), \
            so GNOME, KDE and phosh use it unchanged.
            """,
        version: version)

    @Option(help: ArgumentHelp(
        "Config file to read (INI like systemd's: [Daemon], [Classifier] and [Device \"ID\"] sections of key=value lines; see docs/configuration.md), then its drop-ins (PATH.d/*.conf, in order of name). Flags override them. (default: \(ConfigurationFile.defaultPath), if it exists)",
        valueName: "path"))
    var config: String?

    @Flag(help: "Print the configuration in effect (defaults, then the config file and its drop-ins, then flags) as a commented config file, and exit. Checks a config file without starting.")
    var printConfig = false

    @Option(help: ArgumentHelp(
        "Instead of a sensor, play a recorded trace (lines of 'time x y z', m/s² after the mount matrix) through the real pipeline, in real time. Clients reach it on the usual socket: while orientd runs, give the replay another (--socket /tmp/replay.sock).",
        valueName: "trace"))
    var replay: String?

    @Flag(help: "With --replay: play the trace as fast as possible instead of in real time, log each change, and stop at its end (for scripts that read the log; too fast for a client to follow).")
    var fast = false

    @OptionGroup(title: "Daemon (also config-file keys, under [Daemon])")
    var daemonFlags: DaemonFlags

    @OptionGroup(title: "Classifier (also config-file keys, under [Classifier])")
    var classifierFlags: ClassifierFlags

    func validate() throws {
        if fast, replay == nil { throw ValidationError("--fast goes with --replay TRACE") }
    }

    func run() async throws {
        let invocation = DaemonInvocation(config: config, printConfig: printConfig, replay: replay, fast: fast,
                                          flags: daemonFlags.given + classifierFlags.given)
        do {
            try await Daemon(invocation).run()
        } catch let exit as DaemonExit {
            throw ExitCode(exit.status)
        }
    }
}
