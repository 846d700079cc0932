import Foundation
import Logging

/// Log lines on standard error: "orientd: <level>: <message>", one line per event.
enum DaemonLog {
    static func bootstrap(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { _ in
            var handler = LineLogHandler()
            handler.logLevel = level
            return handler
        }
        return Logger(label: "orientd")
    }
}

struct LineLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = "orientd: \(event.level): \(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
