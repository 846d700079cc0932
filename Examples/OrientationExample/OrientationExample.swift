// A photo viewer's view of orientd, with the Swift client library: prints the device orientation
// and every change, and the interface orientation of content that may not be drawn upside down,
// with the rotation to apply. Run it with `swift run orientation-example` while orientd runs
// (ORIENTD_SOCKET or --socket PATH if it listens elsewhere); stop it with Ctrl-C. If orientd
// restarts, the streams reconnect by themselves.
import Foundation
import OrientdClient

@main
struct OrientationExample {
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.contains("--help") || arguments.contains("-h") {
            say("usage: orientation-example [--socket PATH]\nPrints the device orientation and each change, and where a photo viewer draws; Ctrl-C stops it.")
            return
        }
        let socket = arguments.firstIndex(of: "--socket").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        let orientd = OrientationClient(socketPath: socket)

        do {
            say("the device is \(try await orientd.current())")
        } catch {
            // Not up yet, or restarting: the streams below wait for it.
            say("orientation-example: \(error); waiting for orientd")
        }

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await orientation in orientd.orientationChanges() {
                        say("device: \(orientation)")
                    }
                }
                group.addTask {
                    for try await interface in orientd.interfaceOrientationChanges(supported: [.portrait, .landscapeLeft, .landscapeRight]) {
                        say("photo viewer: draw in \(interface), turned \(interface.rotation)° clockwise")
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            // Only a request orientd refuses ends a stream; a restart does not.
            say("orientation-example: \(error)")
            exit(1)
        }
    }
}

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
