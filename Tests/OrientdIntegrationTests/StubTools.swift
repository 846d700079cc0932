import Foundation
import ScreenRotation

/// Stand-ins for hyprctl, niri, wlr-randr, xrandr and xinput in a scratch directory put first
/// on PATH: each appends its argument vector to a record file (one call a line, arguments
/// separated by tabs) and prints what the real tool prints for its listing commands. hyprctl
/// keeps the transform a `monitor NAME,transform,N` keyword gives eDP-1 or DP-2, as Hyprland
/// does for monitors with a rule of their name in its config, and shows it in `hyprctl
/// monitors`; HDMI-A-1 has no rule of its own, so only a full monitor rule turns it.
/// `STUB_BEHAVIOR` in the tools' environment changes them: `hang` waits for a `sleep 30` it
/// starts (its process ID in the file `sleeper`), `gone` answers as a
/// tool that cannot reach its compositor, `refuse` fails with a message on standard error.
struct StubTools {
    let directory: String
    var recordPath: String { directory + "/calls" }

    init() throws {
        directory = makeScratchDirectory()
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for (tool, body) in Self.scripts {
            let path = bin + "/" + tool
            try Self.script(body).write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        _ = FileManager.default.createFile(atPath: recordPath, contents: nil)
    }

    /// PATH with the stubs first, and where they record.
    var environment: [String: String] {
        ["PATH": directory + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
         "STUB_RECORD": recordPath, "STUB_STATE": directory]
    }

    /// Every call so far, each as a shell line (ToolCommand's spelling).
    var calls: [String] {
        let text = (try? String(contentsOfFile: recordPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { ToolCommand($0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)).description }
    }

    /// The calls that change something: without the listings a backend may read at any time.
    var turns: [String] { calls.filter { !Self.listings.contains($0) } }

    static let listings: Set = ["hyprctl monitors", "niri msg outputs", "wlr-randr", "xrandr --query", "xinput list --name-only"]

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    private static func script(_ body: String) -> String {
        """
        #!/bin/sh
        tool=$(basename "$0")
        line=$tool
        for argument in "$@"; do line="$line$(printf '\\t')$argument"; done
        printf '%s\\n' "$line" >> "$STUB_RECORD"
        case "$STUB_BEHAVIOR" in
            hang) sleep 30 & echo $! > "$STUB_STATE/sleeper"; wait; exit 0 ;;
            refuse) echo "$tool: refused by the test" >&2; exit 1 ;;
        esac
        \(body)
        """
    }

    private static let scripts: [String: String] = [
        "hyprctl": """
            if [ "$STUB_BEHAVIOR" = gone ]; then
                echo "Couldn't connect to /run/user/1000/hypr/stub/.socket.sock. (3)"; exit 3
            fi
            transform() { cat "$STUB_STATE/transform-$1" 2>/dev/null || echo 0; }
            case "$1 $2" in
                "monitors "*)
                    printf 'Monitor eDP-1 (ID 0):\n\t2880x1800@90.00100 at 0x0\n\tdescription: Samsung Display Corp. 0x4152\n\tscale: 1.50\n\ttransform: %s\n\tfocused: yes\n\n' "$(transform eDP-1)"
                    printf 'Monitor DP-2 (ID 1):\n\t2560x1440@143.91200 at 2880x0\n\tscale: 1.00\n\ttransform: %s\n\n' "$(transform DP-2)"
                    printf 'Monitor HDMI-A-1 (ID 2):\n\t1920x1080@60.00000 at 5440x0\n\tscale: 1.00\n\ttransform: 0\n\n' ;;
                "keyword monitor")
                    case "$3" in
                        eDP-1,transform,*|DP-2,transform,*) echo "${3##*,}" > "$STUB_STATE/transform-${3%%,*}" ;;
                    esac
                    echo ok ;;
                "keyword "*) echo ok ;;
                *) echo "unknown request"; exit 0 ;;
            esac
            """,
        "niri": """
            if [ "$STUB_BEHAVIOR" = gone ]; then
                printf 'Error: error connecting to the niri socket\\n\\nCaused by:\\n    NIRI_SOCKET is not set\\n' >&2; exit 1
            fi
            if [ "$1 $2" = "msg outputs" ]; then
                printf 'Output "Sharp Corporation 0x1516 Unknown" (eDP-1)\\n  Current mode: 2880x1920 @ 120.000 Hz (preferred)\\n  Transform: normal\\n\\nOutput "Dell Inc. DELL U2720Q 4K0M1234" (DP-3)\\n  Disabled\\n\\n'
            fi
            """,
        "wlr-randr": """
            if [ "$STUB_BEHAVIOR" = gone ]; then echo "failed to connect to display" >&2; exit 1; fi
            if [ $# -eq 0 ]; then
                printf 'HDMI-A-1 "Dell Inc. DELL P2419H 8H2X1Y3 (HDMI-A-1)"\\n  Enabled: no\\neDP-1 "Sharp Corporation 0x14D1 (eDP-1)"\\n  Enabled: yes\\n  Transform: normal\\n'
            fi
            """,
        "xrandr": """
            if [ "$STUB_BEHAVIOR" = gone ]; then echo "Can't open display :0" >&2; exit 1; fi
            if [ "$1" = "--query" ]; then
                printf 'Screen 0: minimum 320 x 200, current 1920 x 1080, maximum 16384 x 16384\\neDP-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 309mm x 174mm\\n   1920x1080     60.01*+\\nHDMI-1 disconnected (normal left inverted right x axis y axis)\\nDP-1 connected 2560x1440+1920+0 (normal left inverted right x axis y axis) 597mm x 336mm\\n   2560x1440     59.95*+\\n'
            fi
            """,
        "xinput": """
            if [ "$1 $2" = "list --name-only" ]; then
                printf 'Virtual core pointer\\nVirtual core XTEST pointer\\nELAN Touchscreen\\nWacom HID 5218 Pen stylus\\nSynPS/2 Synaptics TouchPad\\nVirtual core keyboard\\nAT Translated Set 2 keyboard\\n'
            fi
            """,
    ]
}
