import AccelerometerIO
import OrientationCore

/// The config file, INI as systemd's unit files are: `[Daemon]` and `[Classifier]` sections of
/// `key=value` lines, `[Device "ID"]` sections for accelerometers that cannot describe themselves,
/// and drop-ins (`<file>.d/*.conf`) read after it in order of name. Every problem is reported with
/// the file, the line and the reason, and nothing is applied if there is any: the daemon refuses
/// to start rather than guess.
public enum ConfigurationFile {
    public static let defaultPath = "/etc/orientd.conf"
    /// Larger than any real config; a bigger file is a mistake (a log or a binary named by --config).
    static let maximumBytes = 64 * 1024

    /// The directory of drop-ins for the config file at `path`: /etc/orientd.conf.d.
    public static func dropInDirectory(for path: String) -> String { path + ".d" }

    /// Reads the file at `path`, then its drop-ins, into `settings`. A missing file is no error
    /// when it is not `required` (the default path): defaults apply, and the drop-ins still do.
    /// - Returns: whether any file was read.
    @discardableResult
    public static func apply(path: String, required: Bool, to settings: inout DaemonSettings) throws(ConfigurationProblems) -> Bool {
        var reader = ConfigurationReader(settings: settings)
        var read = false
        do throws(ConfigurationProblem) {
            if let bytes = try ConfigurationFileReader.bytes(at: path, maximumBytes: maximumBytes) {
                reader.read(bytes, file: path)
                read = true
            } else if required {
                throw ConfigurationProblem(origin: path, line: nil, reason: "no such file")
            }
        } catch {
            throw ConfigurationProblems(problems: [error])
        }
        var problems: [ConfigurationProblem] = []
        do throws(ConfigurationProblem) {
            for dropIn in try DropInDirectory.files(in: dropInDirectory(for: path)) {
                do throws(ConfigurationProblem) {
                    guard let bytes = try ConfigurationFileReader.bytes(at: dropIn, maximumBytes: maximumBytes) else {
                        throw ConfigurationProblem(origin: dropIn, line: nil, reason: "cannot read it: it is gone (a link to nothing?)")
                    }
                    reader.read(bytes, file: dropIn)
                    read = true
                } catch {
                    problems.append(error)
                }
            }
        } catch {
            problems.append(error)
        }
        problems = reader.problems + problems
        guard problems.isEmpty else { throw ConfigurationProblems(problems: problems) }
        settings = reader.settings
        return read
    }

    /// Reads one file's `text` (named `file` in problems) into `settings`, all or nothing.
    public static func apply(text: String, file: String, to settings: inout DaemonSettings) throws(ConfigurationProblems) {
        try apply(files: [(file, text)], to: &settings)
    }

    /// Reads several files' texts in order, as a config file and its drop-ins are read, all or nothing.
    public static func apply(files: [(file: String, text: String)], to settings: inout DaemonSettings) throws(ConfigurationProblems) {
        var reader = ConfigurationReader(settings: settings)
        for (file, text) in files { reader.read(Array(text.utf8), file: file) }
        guard reader.problems.isEmpty else { throw ConfigurationProblems(problems: reader.problems) }
        settings = reader.settings
    }
}
