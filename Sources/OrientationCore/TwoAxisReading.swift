/// A reading of an accelerometer with x and y only (mxc6255, da226, the adis16201 and adis16209
/// inclinometers): the part cannot see z, so orientd takes the screen to face the person
/// looking at it, up from the floor, and gives z what gravity leaves over, ±√(g² − x² − y²). The
/// in-plane orientation is the part's own; the magnitude is 1 g whenever x and y are within it,
/// so the judge's gates hold however far the device leans back; lying flat reads faceUp (faceDown
/// cannot be told from it); beyond 1 g (a shake), z is 0. Pure.
public enum TwoAxisReading {
    /// The acceleration (m/s², in the part's own axes) with z completed from `gravity` (m/s²), on
    /// the side of the part that the mount matrix `mounting` turns towards the screen's front: a
    /// part on the back of the board has its z flipped by the matrix.
    public static func completed(x: Double, y: Double, mounting: MountMatrix = .identity, gravity: Double = 9.80665) -> Vector3 {
        let left = gravity * gravity - x * x - y * y
        let z = left > 0 ? left.squareRoot() : 0
        return Vector3(x, y, mounting.rows[2].z < 0 ? -z : z)
    }
}
