import Glibc
import NIOCore
import NIOPosix
import Testing
@testable import OrientdHub

/// Where the listening socket may go, with real sockets in scratch directories.
@Suite struct SocketPlacementTests {
    private func scratchDirectory(mode: mode_t = 0o700) -> String {
        var template = Array("/tmp/orientd-hub-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        chmod(path, mode)
        return path
    }

    private func bind(_ path: String) async throws -> HubServer {
        let harness = HubHarness()
        return try await HubServer.bind(.path(path), hubs: harness.hubs, sensorRate: 25, maximumClients: 10,
                                        maximumClientsPerUser: 10, logger: HubHarness.quiet)
    }

    private func mode(of path: String) -> (type: mode_t, permissions: mode_t)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_mode & S_IFMT, status.st_mode & 0o7777)
    }

    @Test func theSocketIsOpenToEveryUserWhateverTheUmask() async throws {
        let directory = scratchDirectory()
        let old = umask(0o077)
        defer { umask(old) }
        let server = try await bind(directory + "/orientd.sock")
        let placed = try #require(mode(of: directory + "/orientd.sock"))
        #expect(placed.type == S_IFSOCK)
        #expect(placed.permissions == 0o666)
        #expect(try FileManagerless.entries(of: directory) == ["orientd.sock"], "the private directory is gone")
        await server.close()
        #expect(mode(of: directory + "/orientd.sock") == nil)
    }

    /// Issue 13, D3: with the socket in a directory another user can write, swapping a symlink in
    /// between bind() and chmod() made a root-only file 0666.
    @Test func aDirectoryOthersCanWriteIsRefused() async throws {
        let directory = scratchDirectory(mode: 0o777)
        await #expect(throws: HubError.self) { try await bind(directory + "/orientd.sock") }
        do {
            _ = try await bind(directory + "/orientd.sock")
        } catch {
            #expect("\(error)".contains("writable by other users"))
        }
        #expect(mode(of: directory + "/orientd.sock") == nil)
    }

    @Test func aStickyDirectoryLikeTmpIsAccepted() async throws {
        let directory = scratchDirectory(mode: 0o1777)
        let server = try await bind(directory + "/orientd.sock")
        #expect(mode(of: directory + "/orientd.sock")?.permissions == 0o666)
        await server.close()
    }

    @Test func aSymlinkInTheWayIsNeitherFollowedNorReplaced() async throws {
        let directory = scratchDirectory()
        let secret = directory + "/secret"
        let descriptor = open(secret, O_CREAT | O_WRONLY, 0o600)
        close(descriptor)
        symlink(secret, directory + "/orientd.sock")
        await #expect(throws: HubError.self) { try await bind(directory + "/orientd.sock") }
        #expect(mode(of: secret)?.permissions == 0o600)
        #expect(mode(of: directory + "/orientd.sock")?.type == S_IFLNK)
    }

    @Test func aStaleSocketIsReplaced() async throws {
        let directory = scratchDirectory()
        let first = try await bind(directory + "/orientd.sock")
        // Gone without cleaning up: the file stays, nobody answers on it.
        try await first.channel.close()
        #expect(mode(of: directory + "/orientd.sock")?.type == S_IFSOCK)
        let second = try await bind(directory + "/orientd.sock")
        #expect(mode(of: directory + "/orientd.sock")?.permissions == 0o666)
        await second.close()
    }

    /// A process started while orientd listens (posix_spawn closes only close-on-exec
    /// descriptors) must not keep the socket answering once orientd is gone: the next orientd
    /// would take it for a live daemon. SwiftNIO's own listening socket was inherited; under the
    /// full suite, a test's dbus-daemon held it for 10 s and `aStaleSocketIsReplaced` failed.
    @Test func aChildStartedMeanwhileDoesNotHoldTheSocket() async throws {
        let directory = scratchDirectory()
        let first = try await bind(directory + "/orientd.sock")
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sleep", nil, nil, arguments, environ) == 0)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        try await first.channel.close()
        // Other tests of this process start children too: one between its fork and its exec holds
        // every descriptor for that instant. So the next bind may wait a few seconds for them;
        // the sleep above, had it inherited the socket, would hold it for a minute.
        let deadline = ContinuousClock.now + .seconds(5)
        var second: HubServer?
        while second == nil {
            do {
                second = try await bind(directory + "/orientd.sock")
            } catch where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        await second?.close()
    }

    /// Issue 13, D10: a listen backlog of 256 refused 14 of 5 000 fast non-blocking connects.
    /// The kernel's own view of the listening socket (`ss`: its Send-Q is the backlog) must be as
    /// large as the kernel allows.
    @Test func theBacklogIsWhatTheKernelAllows() async throws {
        let directory = scratchDirectory()
        let server = try await bind(directory + "/orientd.sock")
        defer { Task { await server.close() } }
        let allowed = Int(try String(decoding: FileManagerless.contents(of: "/proc/sys/net/core/somaxconn"), as: UTF8.self)
            .split(separator: "\n").first.map(String.init) ?? "") ?? 0
        let ss = access("/usr/bin/ss", X_OK) == 0 ? "/usr/bin/ss" : "/bin/ss"  // iproute2
        let listing = try FileManagerless.output(of: ss, ["-xlnH"])
        let ours = try #require(listing.split(separator: "\n").first { $0.contains(directory + "/.orientd.") }, "not listed by ss:\n\(listing)")
        let columns = ours.split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count > 3 && Int(columns[3]) == min(Int(HubServer.backlog), allowed), "\(ours)")
        #expect(allowed <= 256 || Int(columns[3])! > 256)
    }
}

/// Directory listing, file contents and a program's output without Foundation.
enum FileManagerless {
    static func contents(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HarnessError("cannot open \(path)") }
        defer { close(descriptor) }
        return readAll(descriptor)
    }

    static func output(of executable: String, _ arguments: [String]) throws -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw HarnessError("no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var pid: pid_t = 0
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { throw HarnessError("cannot run \(executable)") }
        close(pipeEnds[1])
        let output = readAll(pipeEnds[0])
        close(pipeEnds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return String(decoding: output, as: UTF8.self)
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }

    static func entries(of path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw HarnessError("cannot list \(path)") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
