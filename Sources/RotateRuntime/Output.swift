import Foundation
import OrientdClient


package enum Output {
    /// Prints a line and flushes it at once, so a pipe sees every change as it happens.
    package static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Text as it is, for terminal control sequences.
    package static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// A line for people on standard error: notes and warnings that must not mix into the output.
    package static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A client error, printed as "Error: ..." with exit status 1.
package struct ClientFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ error: OrientdClientError) { description = error.description }
    package init(message: String) { description = message }
}
