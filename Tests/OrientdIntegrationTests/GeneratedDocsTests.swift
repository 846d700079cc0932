import Foundation
import Testing

extension IntegrationTests {
    /// The man pages and completions are generated from the argument parsers (scripts/generate-docs)
    /// and committed for installation; these tests fail when a command changed and they did not.
    @Suite struct GeneratedDocsTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        static let regenerate = "run scripts/generate-docs"

        @Test("completions are current", arguments: ["bash", "zsh", "fish"])
        func completionsAreCurrent(shell: String) throws {
            for tool in ["orientd", "orientctl"] {
                let generated = try run(tool, ["--generate-completion-script", shell])
                let committed = try String(contentsOfFile: "\(Self.root)/completions/\(shell)/\(tool)", encoding: .utf8)
                #expect(committed == generated.standardOutput, "completions/\(shell)/\(tool) is stale: \(Self.regenerate)")
            }
        }

        /// The pages read as their --help does: every character that is not ASCII comes through
        /// (swift-argument-parser's generator drops them; scripts/generate-docs puts them back),
        /// groff has no warning, SEE ALSO names pages that exist, and the documents cited are
        /// the ones scripts/install puts in /usr/share/doc/orientd.
        @Test func manPagesReadAsTheHelpDoes() throws {
            let pages = try FileManager.default.contentsOfDirectory(atPath: "\(Self.root)/man/man1").filter { $0.hasSuffix(".1") }
            #expect(pages.count >= 13)
            let install = try String(contentsOfFile: "\(Self.root)/scripts/install", encoding: .utf8)
            for name in pages {
                let path = "\(Self.root)/man/man1/\(name)"
                let page = try String(contentsOfFile: path, encoding: .utf8)
                // orientctl-tablet-mode.1: the program, then its command.
                let title = String(name.dropLast(2))
                let command = title.hasPrefix("orientctl-") ? ["orientctl", String(title.dropFirst("orientctl-".count))] : [title]
                let help = try run(command[0], Array(command.dropFirst()) + ["--help"]).standardOutput
                for scalar in Set(help.unicodeScalars.filter { !$0.isASCII }) {
                    let escape = String(format: "\\[u%04X]", scalar.value)
                    #expect(page.contains(escape), "\(name) lacks '\(scalar)' (\(escape)) that --help has: \(Self.regenerate)")
                }
                let rawCharacters = page.unicodeScalars.filter { !$0.isASCII }
                #expect(rawCharacters.isEmpty, "\(name) has raw characters groff may drop")
                let groff = try run(executable: "/usr/bin/groff", ["-mdoc", "-ww", "-z", "-Tutf8", path])
                #expect(groff.status == 0 && groff.standardError.isEmpty, "groff on \(name): \(groff.standardError)")
                for reference in page.matches(of: /\.Xr ([a-z.-]+) 1/).map({ String($0.1) }) {
                    #expect(pages.contains(reference + ".1"), "\(name) refers to \(reference)(1), which is not a page here")
                }
                for document in page.matches(of: /\/usr\/share\/doc\/orientd\/([a-z-]+\.md)/).map({ String($0.1) }) {
                    #expect(FileManager.default.fileExists(atPath: "\(Self.root)/docs/\(document)"), "\(name) cites \(document)")
                    #expect(install.contains("for document in docs/*.md"), "scripts/install does not ship docs/\(document)")
                }
                #expect(!page.contains("docs/"), "\(name) cites a path in the source tree")
            }
            let orientd = try String(contentsOfFile: "\(Self.root)/man/man1/orientd.1", encoding: .utf8)
            #expect(!orientd.contains("subcommand"), "orientd has no subcommand to show")
            // As man shows them: headed by the section's name, not "BSD", and orientctl's page lists
            // its commands in a section of their own, not only under SEE ALSO.
            let shown = try run(executable: "/usr/bin/groff", ["-mdoc", "-Tutf8", "-P-cbou", "\(Self.root)/man/man1/orientctl.1"]).standardOutput
            #expect(shown.contains("General Commands Manual") && !shown.contains("BSD"), "\(shown.prefix(300))")
            let commands = shown.components(separatedBy: "COMMANDS").dropFirst().first?.components(separatedBy: "EXIT STATUS").first ?? ""
            for command in ["get", "monitor", "watch", "rotate", "calibrate", "lock", "unlock", "status"] {
                #expect(commands.contains("     \(command)"), "orientctl(1)'s COMMANDS lacks \(command): \(Self.regenerate)")
            }
        }

        /// orientd.conf(5) lists every key of the config file with its default, as
        /// `orientd --print-config` prints them (one table of settings for both), and groff reads it.
        @Test func theConfigPageListsEveryKey() throws {
            let path = "\(Self.root)/man/man5/orientd.conf.5"
            let page = try #require(try? String(contentsOfFile: path, encoding: .utf8), "no \(path): \(Self.regenerate)")
            let template = try run("orientd", ["--print-config", "--config", "/dev/null"]).standardOutput
            let keys = template.split(separator: "\n").compactMap { $0.firstMatch(of: /^#([a-z][a-z0-9-]*)=/).map { String($0.1) } }
            #expect(keys.count >= 40, "\(keys.count) keys read")
            for key in keys {
                #expect(page.contains(".It Cm \(key) Ns = Ns "), "orientd.conf(5) lacks \(key): \(Self.regenerate)")
            }
            let groff = try run(executable: "/usr/bin/groff", ["-mdoc", "-ww", "-z", "-Tutf8", path])
            #expect(groff.status == 0 && groff.standardError.isEmpty, "\(groff.standardError)")
        }

        /// Every subcommand has a page, and each page names every option its --help shows.
        @Test func manPagesCoverEveryCommandAndOption() throws {
            let commands: [(page: String, arguments: [String], tool: String)] =
                [("orientd", [], "orientd"), ("orientctl", [], "orientctl")]
                + ["get", "monitor", "watch", "angles", "record", "status", "tablet-mode", "lock", "unlock"].map { ("orientctl-\($0)", [$0], "orientctl") }
            for command in commands {
                let path = "\(Self.root)/man/man1/\(command.page).1"
                let page = try #require(try? String(contentsOfFile: path, encoding: .utf8), "no man page \(path): \(Self.regenerate)")
                let help = try run(command.tool, command.arguments + ["--help"]).standardOutput
                // The options are the lines of the help that start with one (not mentions in prose).
                let options = Set(help.split(separator: "\n").compactMap { line in
                    line.firstMatch(of: /^\s+(?:-[a-z], )?--([a-z][a-z-]*)/).map { String($0.1) }
                }).subtracting(["help", "version"])
                #expect(options.count >= 1 || command.page == "orientctl", "no options read from \(command.page) --help")
                for option in options {
                    #expect(page.contains("Fl -\(option)"), "\(command.page).1 lacks --\(option): \(Self.regenerate)")
                }
            }
        }
    }
}
