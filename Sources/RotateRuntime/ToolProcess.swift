import DaemonThreads
import Glibc
import ScreenRotation

/// Runs a backend's tools as child processes: found on PATH, with no shell, standard input
/// from /dev/null, and killed with everything they started when they overrun their time.
package struct ToolProcess: ToolExecutor {
    /// The environment the tools run in, PATH included (orientctl's own, normally).
    package let environment: [String: String]
    /// How long one command may take before it is killed.
    package var timeout: Double = 5

    package func run(_ command: ToolCommand) -> ToolRun {
        guard let path = Self.locate(command.tool, path: environment["PATH"]) else { return .notFound }
        return Self.spawn(path, command.arguments, environment: environment, timeout: timeout)
    }

    package func pause(seconds: Double) {
        usleep(UInt32(max(0, seconds) * 1_000_000))
    }

    /// The executable `tool` names: itself when it holds a slash, else the first match on PATH.
    package static func locate(_ tool: String, path: String?) -> String? {
        if tool.contains(Character("/")) { return access(tool, X_OK) == 0 ? tool : nil }
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: true)
        for directory in directories {
            let candidate = directory + "/" + tool
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `path` in a process group of its own, collects its output and waits for it, up to
    /// `timeout` seconds; then kills the whole group.
    package static func spawn(_ path: String, _ arguments: [String], environment: [String: String], timeout: Double) -> ToolRun {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard makePipe(&output) else { return .couldNotStart(String(cString: strerror(errno))) }
        guard makePipe(&errors) else {
            close(output[0]); close(output[1])
            return .couldNotStart(String(cString: strerror(errno)))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)

        // Its own process group, so a timeout kills what it started too.
        var pid: pid_t = 0
        let started = start(path, arguments, environment: environment, fileActions: &actions, ownProcessGroup: true, pid: &pid)
        close(output[1])
        close(errors[1])
        guard started == 0 else {
            close(output[0]); close(errors[0])
            return .couldNotStart(String(cString: strerror(started)))
        }

        let deadline = MonotonicClock.now() + timeout
        var collected = ChildOutput(standardOutput: output[0], standardError: errors[0])
        let drained = collected.drain(until: deadline)
        var status: Int32 = 0
        var ended = false
        while drained, !ended {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { ended = true; break }
            if MonotonicClock.now() >= deadline { break }
            usleep(5_000)
        }
        collected.close()
        guard ended else {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return .timedOut(seconds: timeout)
        }
        // The tool ended; anything it left running in its group goes with it.
        kill(-pid, SIGKILL)
        let exitStatus: Int32 = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return .finished(ToolResult(status: exitStatus, standardOutput: collected.text(of: \.output), standardError: collected.text(of: \.error)))
    }

    /// posix_spawn of `path` (`arguments` from argv[0]) with default signal handling and no blocked
    /// signals, whatever orientctl's own are; in a process group of its own if asked. Returns 0,
    /// or posix_spawn's error number.
    package static func start(_ path: String, _ arguments: [String], environment: [String: String],
                              fileActions: UnsafePointer<posix_spawn_file_actions_t>?, ownProcessGroup: Bool, pid: inout pid_t) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        if ownProcessGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return posix_spawn(&pid, path, fileActions, &attributes, argv, envp)
    }

    /// A pipe whose ends the tool does not inherit (it gets them as its descriptors 1 and 2).
    /// Glibc's Swift module leaves pipe2 out.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// A child's standard output and error, read as they come until both end.
    private struct ChildOutput {
        var descriptors: [Int32]
        var output: [UInt8] = []
        var error: [UInt8] = []

        init(standardOutput: Int32, standardError: Int32) {
            descriptors = [standardOutput, standardError]
        }

        /// Reads until both pipes reached their end (true) or the deadline passed (false).
        mutating func drain(until deadline: Double) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while descriptors.contains(where: { $0 >= 0 }) {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return false }
                var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                let ready = poll(&polled, nfds_t(polled.count), Int32(min(left * 1000, 1000).rounded(.up)))
                if ready < 0, errno != EINTR { return false }
                for index in polled.indices where descriptors[index] >= 0 && polled[index].revents != 0 {
                    let count = read(descriptors[index], &buffer, buffer.count)
                    if count > 0 {
                        if index == 0 { output += buffer[..<count] } else { error += buffer[..<count] }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        Glibc.close(descriptors[index])
                        descriptors[index] = -1
                    }
                }
            }
            return true
        }

        mutating func close() {
            for descriptor in descriptors where descriptor >= 0 { Glibc.close(descriptor) }
            descriptors = [-1, -1]
        }

        func text(of stream: KeyPath<ChildOutput, [UInt8]>) -> String {
            String(decoding: self[keyPath: stream], as: UTF8.self)
        }
    }
}
