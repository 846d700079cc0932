import OrientationCore
import ScreenRotation
import Testing

@Suite struct PanelRotationTests {
    @Test func followsTheInterfaceOrientationsRotation() {
        #expect(PanelRotation(.portrait) == .upright)
        // The device turned left shows its content in landscapeRight, turned a quarter clockwise.
        #expect(PanelRotation(.landscapeRight) == .clockwise90)
        #expect(PanelRotation(.portraitUpsideDown) == .upsideDown)
        #expect(PanelRotation(.landscapeLeft) == .clockwise270)
        for rotation in PanelRotation.allCases {
            #expect(PanelRotation(rotation.interfaceOrientation) == rotation)
        }
    }

    @Test func countsCounterClockwiseAsWaylandDoes() {
        #expect(PanelRotation.allCases.map(\.counterClockwiseDegrees) == [0, 270, 180, 90])
    }
}
