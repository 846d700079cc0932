#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The drop-ins of a config file, as systemd takes them: the files of `<file>.d` whose names end
/// in `.conf`, in the byte order of their names; a later one overrides an earlier one. Hidden
/// files and every other name are ignored, and no directory at all means no drop-ins.
enum DropInDirectory {
    /// More is a mistake (a directory of logs named like the config), not a configuration.
    static let maximumFiles = 256

    /// The paths of the drop-ins in `directory`, in the order they are applied.
    static func files(in directory: String) throws(ConfigurationProblem) -> [String] {
        guard let stream = opendir(directory) else {
            let error = errno
            if error == ENOENT { return [] }
            let reason = error == ENOTDIR ? "not a directory; drop-ins go in a directory of this name" : String(cString: strerror(error))
            throw ConfigurationProblem(origin: directory, line: nil, reason: "cannot read the drop-ins: \(reason)")
        }
        defer { closedir(stream) }
        var names: [String] = []
        var unreadable = 0
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                if bytes.count > 5, bytes.suffix(5).elementsEqual(".conf".utf8) { unreadable += 1 }
                continue
            }
            names.append(name)
        }
        if unreadable > 0 {
            throw ConfigurationProblem(origin: directory, line: nil, reason: "\(unreadable) drop-in name\(unreadable == 1 ? " is" : "s are") not UTF-8; rename \(unreadable == 1 ? "it" : "them")")
        }
        let chosen = applied(names)
        guard chosen.count <= maximumFiles else {
            throw ConfigurationProblem(origin: directory, line: nil, reason: "\(chosen.count) drop-ins; more than \(maximumFiles) is not a configuration")
        }
        return chosen.map { directory + "/" + $0 }
    }

    /// Of the names in a directory, those of drop-ins, in the order they are applied.
    static func applied(_ names: [String]) -> [String] {
        names.filter { $0.hasSuffix(".conf") && !$0.hasPrefix(".") && $0.utf8.count > 5 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
