import CDaemonThreads
import Foundation
import Testing

/// Statically initialised, so it lies in the executable's writable data: once written, its page
/// is this process's own copy, which the release must keep.
nonisolated(unsafe) private var writtenAtRunTime = 7

/// orientd drops the pages its start-up faulted in from its own executable (the argument
/// parser's code) once the command line is read: only pages that are the file's own may go.
@Suite struct OwnFilePagesTests {
    @Test func theExecutablesReadOnlyPagesGoAndWhatItWroteStays() throws {
        writtenAtRunTime = 8
        let before = try residentKiBOfReadOnlyMappingsOfThisExecutable()
        let released = orientd_release_own_file_pages()
        let after = try residentKiBOfReadOnlyMappingsOfThisExecutable()
        #expect(released > 0)
        #expect(after < before, "resident read-only pages of the executable: \(before) KiB before, \(after) KiB after")
        // Writable data (and the relocated read-only data, which this code reads through) are
        // the process's own copies: dropped, they would read back as the file's.
        #expect(writtenAtRunTime == 8)
        #expect(String(describing: OwnFilePagesTests.self) == "OwnFilePagesTests")
    }

    /// Resident KiB of the mappings of this test's executable that cannot be written.
    private func residentKiBOfReadOnlyMappingsOfThisExecutable() throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var total = 0
        var counting = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), !fields[0].hasSuffix(":") {
                counting = fields.last.map(String.init) == executable && fields[1].dropFirst().first != "w"
            } else if counting, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }
}
