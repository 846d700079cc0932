/// A three-axis vector: an acceleration in m/s², or a row of a mount matrix.
public struct Vector3: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    public static func + (left: Vector3, right: Vector3) -> Vector3 {
        Vector3(left.x + right.x, left.y + right.y, left.z + right.z)
    }

    public static func - (left: Vector3, right: Vector3) -> Vector3 {
        Vector3(left.x - right.x, left.y - right.y, left.z - right.z)
    }

    public static func * (vector: Vector3, factor: Double) -> Vector3 {
        Vector3(vector.x * factor, vector.y * factor, vector.z * factor)
    }

    public var description: String { "(\(x), \(y), \(z))" }
}
