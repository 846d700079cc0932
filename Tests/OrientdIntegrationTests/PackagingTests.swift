import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The installer and the Debian package, built from this tree. The package test installs it
    /// on this machine with dpkg (the tests run as root in CI) and purges it again.
    @Suite(.serialized) struct PackagingTests {
        static var root: String { SystemdTests.root }

        @Test func theDebianPackageInstallsRunsAndPurgesCleanly() throws {
            let scratch = makeScratchDirectory()
            let build = try run(executable: Self.root + "/scripts/build-deb", ["--output", scratch])
            try #require(build.status == 0, "\(build.standardError)")
            let package = build.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(package.hasSuffix(".deb"))

            let depends = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, "Depends"]).standardOutput
            let packages = depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[0] }
            for library in ["libiio0", "libudev1", "libsystemd0", "libc6"] {
                #expect(packages.contains(Substring(library)), "Depends: \(depends)")
            }
            #expect(depends.contains("libiio0 (>= 0.24)"), "Depends: \(depends)")
            #expect(!depends.contains("swift"), "the Swift runtime is linked in: \(depends)")
            let contents = try run(executable: "/usr/bin/dpkg-deb", ["--contents", package]).standardOutput
            for file in ["./usr/bin/orientd", "./usr/bin/orientctl", "./usr/lib/systemd/system/orientd.service",
                         "./usr/lib/systemd/system/orientd.socket", "./usr/lib/udev/rules.d/61-orientd.rules",
                         "./usr/share/man/man1/orientd.1.gz", "./usr/share/man/man1/orientctl.1.gz",
                         "./usr/share/bash-completion/completions/orientctl", "./etc/orientd.conf"] {
                #expect(contents.contains(file), "\(file) is not in the package")
            }

            let install = try run(executable: "/usr/bin/dpkg", ["--install", package])
            try #require(install.status == 0, "\(install.standardOutput)\(install.standardError)")
            defer { _ = try? run(executable: "/usr/bin/dpkg", ["--purge", "orientd"]) }
            let version = try run(executable: "/usr/bin/orientctl", ["--version"])
            #expect(version.status == 0)
            #expect(version.standardOutput == "0.1.0\n")
            #expect(try run(executable: "/usr/bin/orientd", ["--version"]).standardOutput == "0.1.0\n")
            let verify = try run(executable: "/usr/bin/systemd-analyze", [
                "verify", "/usr/lib/systemd/system/orientd.service", "/usr/lib/systemd/system/orientd.socket"])
            #expect(verify.status == 0 && verify.standardError.isEmpty, "\(verify.standardError)")
            // The maintainer script enabled the socket.
            #expect(FileManager.default.fileExists(atPath: "/etc/systemd/system/sockets.target.wants/orientd.socket"))

            let purge = try run(executable: "/usr/bin/dpkg", ["--purge", "orientd"])
            #expect(purge.status == 0, "\(purge.standardError)")
            for gone in ["/usr/bin/orientd", "/usr/bin/orientctl", "/usr/lib/systemd/system/orientd.service",
                         "/etc/orientd.conf", "/etc/systemd/system/sockets.target.wants/orientd.socket", "/var/lib/orientd"] {
                #expect(!FileManager.default.fileExists(atPath: gone), "\(gone) is left after the purge")
            }
        }

        /// A packager's staged install under another prefix, and the uninstall that takes it all back.
        @Test func installAndUninstallUnderAPrefixInADestdir() throws {
            let destdir = makeScratchDirectory()
            let install = try run(executable: Self.root + "/scripts/install", ["--prefix", "/opt/orientd", "--destdir", destdir])
            try #require(install.status == 0, "\(install.standardError)")
            let unit = try String(contentsOfFile: destdir + "/opt/orientd/lib/systemd/system/orientd.service", encoding: .utf8)
            #expect(unit.contains("ExecStart=/opt/orientd/bin/orientd\n"))
            for file in ["/opt/orientd/bin/orientd", "/opt/orientd/bin/orientctl", "/etc/udev/rules.d/61-orientd.rules",
                         "/opt/orientd/share/man/man1/orientctl.monitor.1.gz", "/opt/orientd/share/zsh/vendor-completions/_orientctl",
                         "/opt/orientd/share/fish/vendor_completions.d/orientd.fish", "/etc/orientd.conf"] {
                #expect(FileManager.default.fileExists(atPath: destdir + file), "\(file) was not installed")
            }
            let help = try run(executable: destdir + "/opt/orientd/bin/orientd", ["--help"])
            #expect(help.standardOutput.contains("USAGE: orientd"))

            let uninstall = try run(executable: Self.root + "/scripts/uninstall", ["--prefix", "/opt/orientd", "--destdir", destdir, "--purge"])
            #expect(uninstall.status == 0, "\(uninstall.standardError)")
            let left = (FileManager.default.enumerator(atPath: destdir)?.allObjects as? [String] ?? []).filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: destdir + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }
}
