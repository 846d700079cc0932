import Foundation
import ProcessHarness
import Testing

/// The installer and the Debian package, built from this tree as the README says. The package
/// is installed and purged in a scratch root with dpkg, never on this machine. Outside the
/// serialized integration tests: it measures no time, and its long poles (dpkg-deb, lintian)
/// run beside them rather than adding 20 s to the suite.
enum PackagingChecks {
    @Suite(.serialized, .onItsOwnThread) struct PackagingTests {
        static var root: String { IntegrationTests.SystemdTests.root }

        /// The README's packaging commands: the `./scripts/build-deb` line of its install block, run
        /// as written, and the package path its `apt install` line names.
        static func readmePackaging() throws -> (command: String, package: String) {
            let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
            let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let build = try #require(lines.first { $0.hasPrefix("./scripts/build-deb") }, "README has no ./scripts/build-deb line")
            let command = String(build.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
            let install = try #require(lines.first { $0.hasPrefix("sudo apt install ./") && $0.hasSuffix(".deb") },
                                       "README has no 'sudo apt install ./….deb' line")
            return (command, String(install.dropFirst("sudo apt install ./".count)))
        }

        /// Runs a shell command line in `directory`, as a person types it there.
        static func shell(_ command: String, in directory: String, environment: [String: String] = [:]) throws -> Finished {
            try run(executable: "/bin/sh", ["-c", "cd \"$1\" && " + command, "sh", directory], environment: environment)
        }

        /// Apache-2.0 throughout: the tree's LICENSE and REUSE.toml, and the package's copyright
        /// file in Debian's machine-readable format, naming every Swift package the build resolves.
        @Test func theLicenceIsApache2AndTheCopyrightFileNamesEveryBundledPackage() throws {
            let licence = try String(contentsOfFile: Self.root + "/LICENSE", encoding: .utf8)
            #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
            let reuse = try String(contentsOfFile: Self.root + "/REUSE.toml", encoding: .utf8)
            #expect(reuse.contains(#"path = "**""#) && reuse.contains(#"SPDX-License-Identifier = "Apache-2.0""#))
            let copyright = try String(contentsOfFile: Self.root + "/packaging/copyright", encoding: .utf8)
            #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
            #expect(copyright.contains("Files: *\nCopyright: 2026 orientd developers\nLicense: Apache-2.0\n"))
            #expect(!copyright.contains("License: none") && !copyright.contains("Files: icu"), "no licence, or a stanza for ICU, which is not linked")
            // Every License short name used has its stand-alone paragraph.
            let used = Set(copyright.split(separator: "\n").filter { $0.hasPrefix("License: ") }.map { String($0.dropFirst(9)) })
            for name in used {
                #expect(copyright.contains("\n\nLicense: \(name)\n "), "no stand-alone License: \(name) paragraph")
            }
            let resolved = try String(contentsOfFile: Self.root + "/Package.resolved", encoding: .utf8)
            let identities = resolved.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: #""identity" : ""#) else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "\"" })
            }
            #expect(!identities.isEmpty)
            let filesLines = copyright.split(separator: "\n").filter { $0.hasPrefix("Files: ") }.joined(separator: " ")
            for identity in identities {
                #expect(filesLines.contains(identity + "/*"), "packaging/copyright does not name \(identity)")
            }
        }

        /// A clean builder gets what building needs, not the tests' compositor, linter, emulators
        /// and locales: scripts/build-deb asks scripts/setup for the build's packages only.
        @Test func buildDebInstallsOnlyWhatBuildingNeeds() throws {
            let script = try String(contentsOfFile: Self.root + "/scripts/build-deb", encoding: .utf8)
            let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("export setup_for=") }, "build-deb does not choose what setup installs")
            let environment = try #require(try? run(executable: "/bin/bash", ["-c", String(line) + #"; echo "$setup_for|$setup_extra_packages""#]).standardOutput)
            let parts = environment.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let listed = try run(executable: Self.root + "/scripts/setup", ["--list"],
                                 environment: ["setup_for": parts[0], "setup_extra_packages": parts[1]])
            let packages = Set(listed.standardOutput.split(separator: "\n").map(String.init))
            #expect(packages == ["pkg-config", "gcc", "libc6-dev", "libiio-dev", "libudev-dev", "libsystemd-dev", "binutils", "dpkg-dev"],
                    "\(packages.sorted())")
        }

        @Test func theReadmesBuildDebMakesAPackageThatInstallsAndPurgesInAScratchRoot() throws {
            // As the README says, from the top of the tree with the default output: this failed
            // (exit 25, no package) while dpkg-shlibdeps got relative paths from another directory.
            let readme = try Self.readmePackaging()
            #expect(readme.command == "./scripts/build-deb")
            // Under root's common umask 077 too, which once left a control directory dpkg-deb refused.
            // At the lowest priority, as lintian below: these run beside tests that time things.
            let build = try Self.shell("umask 077; nice -n 19 " + readme.command, in: Self.root)
            try #require(build.status == 0, "'\(readme.command)' exited \(build.status):\n\(build.standardError)")
            let package = build.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(package == Self.root + "/" + readme.package, "the README's apt install line names \(readme.package)")
            try #require(FileManager.default.fileExists(atPath: Self.root + "/" + readme.package))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/.build-deb").filter { $0.hasPrefix("stage.") }
            #expect(leftovers.isEmpty, "staging directories left: \(leftovers)")
            // lintian takes seconds of its own: it runs beside the checks below, and is heard at the end.
            let lintianReport = makeScratchDirectory() + "/lintian.txt"
            let lintian = try ChildProcess("/bin/sh", ["-c", #"exec nice -n 19 /usr/bin/lintian --fail-on error,warning "$1" > "$2" 2>&1"#,
                                                       "sh", package, lintianReport])
            defer { lintian.stop() }

            // What is in it: the control fields, the maintainer scripts (executable), the files.
            let info = try run(executable: "/usr/bin/dpkg-deb", ["--info", package])
            try #require(info.status == 0, "\(info.standardError)")
            for script in ["postinst", "prerm", "postrm"] {
                #expect(info.standardOutput.split(separator: "\n").contains { $0.contains("*  \(script) ") && $0.contains("#!/bin/sh") },
                        "no executable \(script) in:\n\(info.standardOutput)")
            }
            #expect(info.standardOutput.contains(" conffiles"), "\(info.standardOutput)")
            #expect(info.standardOutput.contains("Package: orientd\n") && info.standardOutput.contains("Version: 0.1.0\n"))
            let depends = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, "Depends"]).standardOutput
            // Of alternatives ("polkitd | policykit-1"), the one this machine has.
            let dependencies = depends.split(separator: ",").map { item in
                let alternatives = item.split(separator: "|").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[0] }
                return alternatives.first { Self.isInstalled(String($0)) } ?? alternatives[0]
            }
            // The shipped config serves D-Bus with polkit deciding every claim: without polkitd
            // every Claim is refused and the desktop never turns.
            #expect(depends.contains("polkitd"), "Depends: \(depends)")
            // postinst makes the orientd user with systemd-sysusers.
            #expect(depends.contains("systemd | systemd-standalone-sysusers | systemd-sysusers"), "Depends: \(depends)")
            for library in ["libiio0", "libudev1", "libsystemd0", "libc6"] {
                #expect(dependencies.contains(Substring(library)), "Depends: \(depends)")
            }
            #expect(depends.contains("libiio0 (>= 0.24)"), "Depends: \(depends)")
            // The release build's packed relocations need glibc 2.36, which dpkg-shlibdeps cannot see.
            #expect(depends.contains("libc6 (>= 2.36)"), "Depends: \(depends)")
            #expect(!depends.contains("swift"), "the Swift runtime is linked in: \(depends)")
            #expect(dependencies.filter { $0 == "libc6" }.count == 1, "libc6 named more than once: \(depends)")
            // Who answers for it: the packager (DEBFULLNAME/DEBEMAIL, else git's identity), never a
            // made-up address; no homepage that does not exist.
            let maintainer = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, "Maintainer"]).standardOutput
            let gitEmail = try run(executable: "/usr/bin/git", ["-C", Self.root, "config", "user.email"]).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(maintainer.contains("<\(ProcessInfo.processInfo.environment["DEBEMAIL"] ?? gitEmail)>"), "Maintainer: \(maintainer)")
            #expect(!maintainer.contains("localhost"), "Maintainer: \(maintainer)")
            let homepage = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, "Homepage"]).standardOutput
            #expect(!homepage.contains("localhost"), "Homepage: \(homepage)")
            // Stripped binaries (dh_strip's way).
            let extracted = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: extracted) }
            _ = try run(executable: "/usr/bin/dpkg-deb", ["-x", package, extracted])
            for program in ["orientd", "orientctl"] {
                let sections = try run(executable: "/usr/bin/readelf", ["-S", "-W", extracted + "/usr/bin/" + program]).standardOutput
                #expect(!sections.contains(".symtab") && !sections.contains(".debug_info"), "\(program) is not stripped")
                let size = try FileManager.default.attributesOfItem(atPath: extracted + "/usr/bin/" + program)[.size] as? Int ?? 0
                #expect(size < (program == "orientd" ? 25 : 64) << 20, "\(program) is \(size >> 20) MiB")
            }
            // It takes iio-sensor-proxy's place: what depends on it is satisfied, and installing
            // one removes the other.
            for field in ["Provides", "Conflicts", "Replaces"] {
                let value = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, field]).standardOutput
                #expect(value == "iio-sensor-proxy\n", "\(field): \(value)")
            }
            // Issue 44: at most 20 MB installed (Installed-Size is in KiB): one executable is
            // orientd and orientctl, so one copy of the Swift runtime.
            let installedSize = try run(executable: "/usr/bin/dpkg-deb", ["--field", package, "Installed-Size"]).standardOutput
            let kibibytes = Int(installedSize.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
            #expect(kibibytes * 1024 <= 20_000_000, "Installed-Size: \(kibibytes) KiB")
            print("packaging: Installed-Size \(kibibytes) KiB")
            let contents = try run(executable: "/usr/bin/dpkg-deb", ["--contents", package]).standardOutput
            #expect(contents.contains("./usr/bin/orientctl -> orientd\n"), "orientctl is not the orientd executable under its name")
            let files = ["/usr/share/doc/orientd/changelog.gz", "/usr/share/doc/orientd/copyright", "/usr/bin/orientd", "/usr/bin/orientctl", "/usr/lib/systemd/system/orientd.service",
                         "/usr/lib/systemd/system/orientd.socket", "/usr/lib/systemd/user/orientd-rotate.service",
                         "/usr/lib/udev/rules.d/61-orientd.rules", "/usr/share/man/man1/orientd.1.gz", "/usr/share/man/man1/orientctl.1.gz",
                         "/usr/share/man/man5/orientd.conf.5.gz",
                         "/usr/share/bash-completion/completions/orientctl", "/etc/orientd.conf",
                         "/usr/lib/sysusers.d/orientd.conf", "/usr/libexec/orientd/orientd-sensor-access",
                         Self.busPolicy, Self.polkitAction]
            for file in files {
                #expect(contents.contains("." + file + "\n") || contents.contains("." + file + " -> "), "\(file) is not in the package")
            }
            #expect(!contents.contains("./usr/share/orientd/"), "the installer's own file list is packaged")
            // "./" is the root of whatever directory the package is unpacked into (dpkg-deb -x).
            #expect(contents.hasPrefix("drwxr-xr-x root/root"), "the data archive's ./ is \(contents.prefix(10))")

            // Installed into a scratch root: its dpkg database knows only the packages the
            // Depends name, as this machine has them, so dpkg checks they are satisfied.
            let scratchRoot = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: scratchRoot) }
            try Self.makeDpkgDatabase(in: scratchRoot, with: dependencies.map(String.init))
            let onThisMachine = ["/usr/bin/orientd", "/etc/orientd.conf", "/etc/systemd/system/sockets.target.wants/orientd.socket"]
                .map { FileManager.default.fileExists(atPath: $0) }
            let dpkg = ["--root=" + scratchRoot, "--force-script-chrootless", "--log=/dev/null"]
            let install = try run(executable: "/usr/bin/dpkg", dpkg + ["--install", package])
            try #require(install.status == 0, "\(install.standardOutput)\(install.standardError)")
            for file in files {
                #expect(FileManager.default.fileExists(atPath: scratchRoot + file), "\(file) was not installed")
            }
            let status = try run(executable: "/usr/bin/dpkg", ["--root=" + scratchRoot, "--status", "orientd"]).standardOutput
            #expect(status.contains("Status: install ok installed"), "\(status)")
            #expect(status.contains("Conffiles:\n /etc/orientd.conf "), "\(status)")
            try Self.expectSensorProxyFiles(in: scratchRoot)
            // postinst made the user orientd.service runs as, in the scratch root.
            let passwd = (try? String(contentsOfFile: scratchRoot + "/etc/passwd", encoding: .utf8)) ?? ""
            #expect(passwd.split(separator: "\n").contains { $0.hasPrefix("orientd:") && $0.hasSuffix(":/usr/sbin/nologin") }, "/etc/passwd: \(passwd)")
            let installedRule = try String(contentsOfFile: scratchRoot + "/usr/lib/udev/rules.d/61-orientd.rules", encoding: .utf8)
            #expect(installedRule.contains("PROGRAM=\"/usr/libexec/orientd/orientd-sensor-access %S%p\""), "\(installedRule)")
            let version = try run(executable: scratchRoot + "/usr/bin/orientctl", ["--version"])
            #expect(version.status == 0 && version.standardOutput == "0.1.0\n", "\(version.standardError)")
            #expect(try run(executable: scratchRoot + "/usr/bin/orientd", ["--version"]).standardOutput == "0.1.0\n")
            // The installed units verify, with ExecStart pointed at the installed binary (this
            // machine has no /usr/bin/orientd, and the scratch root no systemd to verify against).
            let units = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: units) }
            let service = try String(contentsOfFile: scratchRoot + "/usr/lib/systemd/system/orientd.service", encoding: .utf8)
            #expect(service.contains("\nExecStart=/usr/bin/orientd"))
            try service.replacingOccurrences(of: "\nExecStart=/usr/bin/orientd", with: "\nExecStart=" + scratchRoot + "/usr/bin/orientd")
                .write(toFile: units + "/orientd.service", atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(atPath: scratchRoot + "/usr/lib/systemd/system/orientd.socket", toPath: units + "/orientd.socket")
            let verify = try run(executable: "/usr/bin/systemd-analyze", ["verify", "--man=no", units + "/orientd.service", units + "/orientd.socket"])
            #expect(verify.status == 0 && verify.standardError.isEmpty, "\(verify.standardError)")
            // postinst enabled the socket, in the scratch root only.
            let wants = scratchRoot + "/etc/systemd/system/sockets.target.wants/orientd.socket"
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: wants) == "/usr/lib/systemd/system/orientd.socket")

            // The rotation lock's saved state, which a purge takes too.
            try FileManager.default.createDirectory(atPath: scratchRoot + "/var/lib/orientd", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: scratchRoot + "/var/lib/orientd/state.json", contents: Data(#"{"locked":true}"#.utf8))
            let purge = try run(executable: "/usr/bin/dpkg", dpkg + ["--purge", "orientd"])
            #expect(purge.status == 0, "\(purge.standardOutput)\(purge.standardError)")
            for gone in files + ["/etc/systemd/system/sockets.target.wants/orientd.socket", "/var/lib/orientd"] {
                #expect(!Self.exists(scratchRoot + gone), "\(gone) is left after the purge")
            }
            #expect(onThisMachine == ["/usr/bin/orientd", "/etc/orientd.conf", "/etc/systemd/system/sockets.target.wants/orientd.socket"]
                .map { FileManager.default.fileExists(atPath: $0) }, "installing into the scratch root touched this machine")

            // Nothing lintian calls an error or a warning.
            let lintianStatus = lintian.exitStatus(timeout: 120)
            let report = (try? String(contentsOfFile: lintianReport, encoding: .utf8)) ?? ""
            let findings = report.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
            #expect(lintianStatus == 0 && findings.isEmpty, "lintian exited \(String(describing: lintianStatus)): \(findings)\n\(report)")

            // Another output directory, relative to where the command runs, from the same build
            // (uncompressed: compressing 40 MB of binaries again would only cost time).
            let elsewhere = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: elsewhere) }
            let again = try Self.shell("'\(Self.root)/scripts/build-deb' --no-build --output packages", in: elsewhere,
                                       environment: ["DPKG_DEB_COMPRESSOR_TYPE": "none"])
            try #require(again.status == 0, "\(again.standardError)")
            #expect(again.standardOutput == elsewhere + "/packages/" + URL(fileURLWithPath: readme.package).lastPathComponent + "\n")
        }

        /// Installing the package on a machine with iio-sensor-proxy (a stand-in with the files
        /// Debian 12's 3.0 has, plus the polkit action of 3.4 and later) removes it, keeps its
        /// D-Bus policy (a conffile, in another directory than orientd's), satisfies a package that
        /// depends on it, and after a purge of orientd iio-sensor-proxy installs again.
        @Test func thePackageReplacesIioSensorProxyAndGivesItBack() throws {
            let scratch = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let build = try run(executable: Self.root + "/scripts/build-deb", ["--no-build", "--output", scratch + "/out"],
                                environment: ["DPKG_DEB_COMPRESSOR_TYPE": "none"])
            try #require(build.status == 0, "\(build.standardError)")
            let orientd = build.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let proxyPolicy = "/etc/dbus-1/system.d/net.hadess.SensorProxy.conf"
            let proxy = try Self.makePackage(in: scratch, name: "iio-sensor-proxy", fields: "Version: 3.0-2\n", conffiles: [proxyPolicy], files: [
                proxyPolicy: "<busconfig/>\n", "/usr/sbin/iio-sensor-proxy": "#!/bin/sh\n",
                "/usr/lib/systemd/system/iio-sensor-proxy.service": "[Service]\nExecStart=/usr/sbin/iio-sensor-proxy\n",
                Self.polkitAction: "<policyconfig/>\n"])
            let desktop = try Self.makePackage(in: scratch, name: "rotating-desktop", fields: "Version: 1\nDepends: iio-sensor-proxy\n",
                                               files: ["/usr/share/doc/rotating-desktop/README": "turns the screen\n"])

            let root = scratch + "/root"
            let depends = try run(executable: "/usr/bin/dpkg-deb", ["--field", orientd, "Depends"]).standardOutput
            try Self.makeDpkgDatabase(in: root, with: depends.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[0]) })
            let dpkg = ["--root=" + root, "--force-script-chrootless", "--log=/dev/null"]
            func status(_ package: String) -> String {
                (try? run(executable: "/usr/bin/dpkg", ["--root=" + root, "--status", package]))?.standardOutput ?? ""
            }
            let installProxy = try run(executable: "/usr/bin/dpkg", dpkg + ["--install", proxy])
            try #require(installProxy.status == 0, "\(installProxy.standardOutput)\(installProxy.standardError)")

            let install = try run(executable: "/usr/bin/dpkg", dpkg + ["--install", orientd])
            try #require(install.status == 0, "\(install.standardOutput)\(install.standardError)")
            #expect(install.standardError.contains("will remove iio-sensor-proxy in favour of orientd"), "\(install.standardError)")
            #expect(status("iio-sensor-proxy").contains("Status: install ok config-files"), "\(status("iio-sensor-proxy"))")
            #expect(status("orientd").contains("Status: install ok installed"))
            #expect(!Self.exists(root + "/usr/sbin/iio-sensor-proxy") && !Self.exists(root + "/usr/lib/systemd/system/iio-sensor-proxy.service"))
            #expect(Self.exists(root + proxyPolicy), "iio-sensor-proxy's conffile goes only with its purge")
            try Self.expectSensorProxyFiles(in: root)

            let installDesktop = try run(executable: "/usr/bin/dpkg", dpkg + ["--install", desktop])
            #expect(installDesktop.status == 0, "a package that depends on iio-sensor-proxy: \(installDesktop.standardError)")
            let purgeDesktop = try run(executable: "/usr/bin/dpkg", dpkg + ["--purge", "rotating-desktop"])
            #expect(purgeDesktop.status == 0, "\(purgeDesktop.standardError)")

            let purge = try run(executable: "/usr/bin/dpkg", dpkg + ["--purge", "orientd"])
            try #require(purge.status == 0, "\(purge.standardOutput)\(purge.standardError)")
            #expect(!Self.exists(root + Self.busPolicy) && !Self.exists(root + Self.polkitAction))
            let back = try run(executable: "/usr/bin/dpkg", dpkg + ["--install", proxy])
            #expect(back.status == 0, "\(back.standardOutput)\(back.standardError)")
            #expect(status("iio-sensor-proxy").contains("Status: install ok installed"))
            #expect(Self.exists(root + "/usr/sbin/iio-sensor-proxy") && Self.exists(root + proxyPolicy))
        }

        /// A package of `name` holding `files` (path: text), built in `directory`; returns its path.
        static func makePackage(in directory: String, name: String, fields: String, conffiles: [String] = [],
                                files: [String: String]) throws -> String {
            let stage = directory + "/" + name
            try FileManager.default.createDirectory(atPath: stage + "/DEBIAN", withIntermediateDirectories: true)
            try "Package: \(name)\n\(fields)Architecture: all\nMaintainer: orientd tests <orientd@localhost>\nDescription: stand-in for the tests\n"
                .write(toFile: stage + "/DEBIAN/control", atomically: true, encoding: .utf8)
            if !conffiles.isEmpty {
                try conffiles.map { $0 + "\n" }.joined().write(toFile: stage + "/DEBIAN/conffiles", atomically: true, encoding: .utf8)
            }
            for (path, text) in files {
                try FileManager.default.createDirectory(atPath: stage + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: stage + path, atomically: true, encoding: .utf8)
            }
            let package = directory + "/" + name + ".deb"
            // The modes dpkg-deb wants, whatever the umask of the moment (a unit test running
            // beside these sets 077).
            _ = try run(executable: "/bin/chmod", ["-R", "u+rwX,go+rX,go-w", stage])
            let build = try run(executable: "/usr/bin/dpkg-deb", ["--root-owner-group", "--build", stage, package])
            try #require(build.status == 0, "\(build.standardError)")
            return package
        }

        static let busPolicy = "/usr/share/dbus-1/system.d/net.hadess.SensorProxy.conf"
        static let polkitAction = "/usr/share/polkit-1/actions/net.hadess.SensorProxy.policy"

        /// What an installed orientd needs to be iio-sensor-proxy: a D-Bus policy that lets only
        /// orientd's user and root own the name and anyone call it (the compass only geoclue), the
        /// polkit action it asks about (whose owner orientd's user is, so polkit answers it), and a
        /// config that turns the interface on, which orientd itself reads so.
        static func expectSensorProxyFiles(in root: String) throws {
            let policy = try parsedXML(root + busPolicy)
            for user in ["orientd", "root"] {
                #expect(policy.contains("<policy user=\"\(user)\">\n    <allow own=\"net.hadess.SensorProxy\"/>\n  </policy>"), "\(policy)")
            }
            #expect(policy.contains("<deny own=\"net.hadess.SensorProxy\"/>"), "\(policy)")
            #expect(policy.components(separatedBy: "<allow own=").count == 3, "only orientd and root may own the name: \(policy)")
            for interface in ["net.hadess.SensorProxy", "org.freedesktop.DBus.Properties",
                              "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"] {
                #expect(policy.contains("<allow send_destination=\"net.hadess.SensorProxy\" send_interface=\"\(interface)\"/>"),
                        "\(interface) may not be called")
            }
            // The compass only for geoclue, as Debian's iio-sensor-proxy (SensorProxyPolicyTests runs it).
            #expect(policy.contains("<policy user=\"geoclue\">\n    <allow send_destination=\"net.hadess.SensorProxy\" send_interface=\"net.hadess.SensorProxy.Compass\" send_path=\"/net/hadess/SensorProxy/Compass\"/>"),
                    "\(policy)")
            #expect(policy.contains("<deny send_destination=\"net.hadess.SensorProxy\" send_interface=\"net.hadess.SensorProxy.Compass\"/>"),
                    "\(policy)")
            let action = try parsedXML(root + polkitAction)
            #expect(action.contains("<action id=\"net.hadess.SensorProxy.claim-sensor\">"), "\(action)")
            #expect(action.contains("<vendor>orientd</vendor>"))
            #expect(action.contains("<allow_any>no</allow_any>") && action.contains("<allow_inactive>no</allow_inactive>")
                    && action.contains("<allow_active>yes</allow_active>"), "\(action)")
            // polkit answers CheckAuthorization about another user's process only to root and to
            // the users an action names as its owners.
            #expect(action.contains("<annotate key=\"org.freedesktop.policykit.owner\">unix-user:orientd</annotate>"), "\(action)")
            let config = try run(executable: root + "/usr/bin/orientd", ["--config", root + "/etc/orientd.conf", "--print-config"])
            #expect(config.status == 0, "\(config.standardError)")
            let settings = config.standardOutput.split(separator: "\n")
            // The interface on; polkit asked, as by default (print-config comments out a default).
            #expect(settings.contains("sensor-proxy=true") && settings.contains("#sensor-proxy-polkit=true"), "\(config.standardOutput)")
        }

        /// The file's text, once an XML parser has read it whole without an error.
        static func parsedXML(_ path: String) throws -> String {
            let parse = try run(executable: "/usr/bin/python3", ["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", path])
            #expect(parse.status == 0, "\(path) is not well-formed XML: \(parse.standardError)")
            return try String(contentsOfFile: path, encoding: .utf8)
        }

        /// A dpkg database for `root` holding only `packages`, each as this machine has it installed
        /// (with an empty file list: dpkg needs only their versions).
        static func makeDpkgDatabase(in root: String, with packages: [String]) throws {
            let admin = root + "/var/lib/dpkg"
            for directory in ["info", "updates", "triggers"] {
                try FileManager.default.createDirectory(atPath: admin + "/" + directory, withIntermediateDirectories: true)
            }
            let query = try run(executable: "/usr/bin/dpkg-query", ["--status"] + packages)
            try #require(query.status == 0, "these dependencies are not installed here: \(query.standardError)")
            try query.standardOutput.write(toFile: admin + "/status", atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: admin + "/available", contents: nil)
            let architecture = try run(executable: "/usr/bin/dpkg", ["--print-architecture"]).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for package in packages {
                _ = FileManager.default.createFile(atPath: "\(admin)/info/\(package).list", contents: nil)
                _ = FileManager.default.createFile(atPath: "\(admin)/info/\(package):\(architecture).list", contents: nil)
            }
        }

        static func isInstalled(_ package: String) -> Bool {
            (try? run(executable: "/usr/bin/dpkg-query", ["-W", "-f=${Status}", package]).standardOutput) == "install ok installed"
        }

        /// Whether anything is at `path`, a dangling link included.
        static func exists(_ path: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: path)) != nil
        }

        /// A packager's staged install under another prefix, and the uninstall that takes it all back.
        @Test func installAndUninstallUnderAPrefixInADestdir() throws {
            let destdir = makeScratchDirectory()
            let install = try run(executable: Self.root + "/scripts/install", ["--prefix", "/opt/orientd", "--destdir", destdir])
            try #require(install.status == 0, "\(install.standardError)")
            let unit = try String(contentsOfFile: destdir + "/opt/orientd/lib/systemd/system/orientd.service", encoding: .utf8)
            #expect(unit.contains("ExecStart=/opt/orientd/bin/orientd\n"))
            // The rule runs the helper where this prefix put it.
            let rule = try String(contentsOfFile: destdir + "/etc/udev/rules.d/61-orientd.rules", encoding: .utf8)
            #expect(rule.contains("PROGRAM=\"/opt/orientd/libexec/orientd/orientd-sensor-access %S%p\""), "\(rule)")
            for file in ["/opt/orientd/bin/orientd", "/opt/orientd/bin/orientctl", "/etc/udev/rules.d/61-orientd.rules",
                         "/opt/orientd/share/man/man1/orientctl-monitor.1.gz", "/opt/orientd/share/zsh/vendor-completions/_orientctl",
                         "/opt/orientd/share/fish/vendor_completions.d/orientd.fish", "/etc/orientd.conf",
                         // Where D-Bus and polkit read them: not under the prefix.
                         "/etc/dbus-1/system.d/orientd-sensor-proxy.conf", Self.polkitAction, "/etc/sysusers.d/orientd.conf",
                         "/opt/orientd/libexec/orientd/orientd-sensor-access"] {
                #expect(FileManager.default.fileExists(atPath: destdir + file), "\(file) was not installed")
            }
            let help = try run(executable: destdir + "/opt/orientd/bin/orientd", ["--help"])
            #expect(help.standardOutput.contains("USAGE: orientd"))
            // The man pages cite the documents where this prefix put them.
            let page = try run(executable: "/bin/sh", ["-c", "gzip -dc '\(destdir)/opt/orientd/share/man/man1/orientd.1.gz'"]).standardOutput
            #expect(page.contains("/opt/orientd/share/doc/orientd/protocol.md") && !page.contains("/usr/share/doc/orientd/"))
            #expect(FileManager.default.fileExists(atPath: destdir + "/opt/orientd/share/doc/orientd/protocol.md"))

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
