import CDaemonThreads
import Foundation
import Testing

/// orientd drops the pages its start-up faulted in from the files it maps (the argument parser's
/// code, libiio's XML parser): only pages that are the file's own may go.
@Suite struct OwnFilePagesTests {
    @Test func aFilesCleanPagesGoAndItsWrittenPagesStay() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("own-file-pages-\(getpid())").path
        try Data(repeating: UInt8(ascii: "A"), count: 4 * pageSize).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        // Two private mappings of one file: one only read, as code is; one written, then made
        // read-only, as the loader does to relocated data.
        func map(_ protection: Int32) throws -> UnsafeMutablePointer<UInt8> {
            let mapping = mmap(nil, 4 * pageSize, protection, MAP_PRIVATE, descriptor, 0)
            try #require(mapping != nil && mapping != UnsafeMutableRawPointer(bitPattern: -1))
            return mapping!.assumingMemoryBound(to: UInt8.self)
        }
        let clean = try map(PROT_READ)
        let written = try map(PROT_READ | PROT_WRITE)
        defer { munmap(clean, 4 * pageSize); munmap(written, 4 * pageSize) }
        let read = (0..<4).map { clean[$0 * pageSize] }  // faults every page in
        try #require(read == Array(repeating: UInt8(ascii: "A"), count: 4))
        written[0] = UInt8(ascii: "B")
        try #require(mprotect(written, 4 * pageSize, PROT_READ) == 0)
        try #require(residentKiB(of: clean) == 4 * pageSize / 1024)

        let released = orientd_release_clean_file_pages()

        #expect(released >= 4 * pageSize / 1024)
        #expect(residentKiB(of: clean) == 0)
        #expect(written[0] == UInt8(ascii: "B"), "a page copied on write was dropped: it reads the file's byte again")
        #expect(clean[0] == UInt8(ascii: "A"))
    }

    /// Resident KiB of the mapping that starts at `address`, from /proc/self/smaps.
    private func residentKiB(of address: UnsafeMutablePointer<UInt8>) -> Int? {
        let start = String(UInt(bitPattern: address), radix: 16)
        // Read to its end: String(contentsOfFile:) stops at the first read of a /proc file.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"), let bytes = try? handle.readToEnd() else { return nil }
        let smaps = String(decoding: bytes, as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), !line.hasSuffix("kB"), line[..<dash].allSatisfy(\.isHexDigit) {
                inMapping = line[..<dash].drop { $0 == "0" } == start.drop { $0 == "0" }
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }
}
