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

        /// Every subcommand has a page, and each page names every option its --help shows.
        @Test func manPagesCoverEveryCommandAndOption() throws {
            let commands: [(page: String, arguments: [String], tool: String)] =
                [("orientd", [], "orientd"), ("orientctl", [], "orientctl")]
                + ["get", "monitor", "watch", "angles", "record", "status", "tablet-mode", "lock", "unlock"].map { ("orientctl.\($0)", [$0], "orientctl") }
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
