import Foundation
import OrientationCore

/// How a convertible stands: its hinge opened `hinge` degrees (0 closed … 360 tablet) and its
/// base tilted `baseTilt` degrees about the hinge (positive lifts the front edge). Gives what each
/// half's accelerometer reads, built by turning frames rather than from orientd's formula.
public struct ConvertiblePose: Sendable, CustomStringConvertible {
    public var name: String
    public var hinge: Double
    public var baseTilt: Double

    public init(_ name: String, hinge: Double, baseTilt: Double = 0) {
        self.name = name
        self.hinge = hinge
        self.baseTilt = baseTilt
    }

    /// The five positions of a 360° convertible; tent and tablet stand on edges or lie face down.
    public static let closed = ConvertiblePose("closed", hinge: 0)
    public static let laptop = ConvertiblePose("laptop", hinge: 110)
    public static let flat = ConvertiblePose("flat", hinge: 180)
    public static let tent = ConvertiblePose("tent", hinge: 300, baseTilt: -120)
    public static let tablet = ConvertiblePose("tablet", hinge: 360, baseTilt: 180)

    public static let all = [closed, laptop, flat, tent, tablet]

    public static func named(_ name: String) -> ConvertiblePose? { all.first { $0.name == name } }

    /// Reactions to gravity in m/s², each in its half's frame.
    public var display: Vector3 { Self.rotated(base, aboutXBy: -(hinge - 180)) }
    public var base: Vector3 { Self.rotated(Vector3(0, 0, 9.80665), aboutXBy: -baseTilt) }

    public var description: String { "\(name) (\(Int(hinge))°)" }

    static func rotated(_ v: Vector3, aboutXBy degrees: Double) -> Vector3 {
        let r = degrees * .pi / 180
        return Vector3(v.x, v.y * cos(r) - v.z * sin(r), v.y * sin(r) + v.z * cos(r))
    }
}
