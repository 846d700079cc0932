/// Finding the laptop's or tablet's own screen among the outputs a compositor lists.
public enum BuiltInPanel {
    /// Connector names of built-in panels, most common first: embedded DisplayPort, then LVDS
    /// (older laptops), then MIPI DSI (ARM tablets and phones). Wayland compositors write them
    /// `eDP-1`, X11 drivers `eDP1`, `eDP` or `eDP-1`.
    static let connectorPrefixes = ["eDP", "LVDS", "DSI"]

    /// The built-in panel among `outputs`: the first eDP one, else the first LVDS, else the first
    /// DSI. nil when there is none (a desktop, or a panel on an unusual connector): the caller
    /// asks for `--output`.
    public static func choose(from outputs: [String]) -> String? {
        for prefix in connectorPrefixes {
            if let panel = outputs.first(where: { isConnector($0, prefix) }) { return panel }
        }
        return nil
    }

    /// `name` is `prefix` alone or followed by a number, with or without a dash: `eDP-1` and
    /// `eDP1` are, `eDPX` is not.
    private static func isConnector(_ name: String, _ prefix: String) -> Bool {
        if name == prefix { return true }
        guard name.hasPrefix(prefix) else { return false }
        var number = name.dropFirst(prefix.count)
        if number.first == "-" { number = number.dropFirst() }
        return !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }
}
