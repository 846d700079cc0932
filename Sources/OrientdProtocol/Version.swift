/// orientd's release, shared by the daemon, orientctl and the package scripts' checks.
public enum OrientdVersion {
    public static let current = "0.1.0"
}
