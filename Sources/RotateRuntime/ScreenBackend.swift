import ScreenRotation

/// A way to turn the screen of one compositor or display server (sway's IPC, or a command such
/// as hyprctl, niri, wlr-randr or xrandr). `orientctl rotate` keeps one for its whole run.
package protocol ScreenBackend: AnyObject {
    /// The backend's name, as `--backend` takes it: sway, hyprland, niri, wlr-randr or x11.
    var name: String { get }
    /// The outputs the compositor has now, for choosing the built-in panel.
    func outputNames() throws(BackendFailure) -> [String]
    /// Turns `output`, and the touchscreen and pen input mapped to it, to `rotation`.
    func turn(_ output: String, to rotation: PanelRotation) throws(BackendFailure)
}

/// Why a backend could not do what it was asked.
package struct BackendFailure: Error, CustomStringConvertible {
    /// What went wrong, in words, naming the compositor or the command.
    package let description: String
    /// True when the compositor could not be reached at all (not running, socket gone): worth
    /// trying again later. False when it answered and refused (a wrong output name, say).
    package let compositorGone: Bool
    /// The system's error number, when one says why (connect's ENOENT, say); 0 otherwise.
    package var code: Int32 = 0

    package init(description: String, compositorGone: Bool, code: Int32 = 0) {
        (self.description, self.compositorGone, self.code) = (description, compositorGone, code)
    }
}
