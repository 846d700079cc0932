import ScreenRotation
import Testing

@Suite struct SwayCommandsTests {
    /// sway-output(5): `output <name> transform normal|90|180|270`, "performed clockwise";
    /// sway-input(5): `input <identifier> map_to_output <output>`, identifiers `type:touch` and
    /// `type:tablet_tool`.
    @Test func turnsTheOutputClockwiseAndMapsTouchAndPenToIt() {
        #expect(SwayCommands.turn("eDP-1", to: .clockwise90)
            == #"output "eDP-1" transform 90; input type:touch map_to_output "eDP-1"; input type:tablet_tool map_to_output "eDP-1""#)
        #expect(PanelRotation.allCases.map(SwayCommands.transform) == ["normal", "90", "180", "270"])
    }

    @Test func readsBackWhatItSets() {
        for rotation in PanelRotation.allCases {
            #expect(SwayCommands.rotation(transform: SwayCommands.transform(rotation)) == rotation)
        }
        #expect(SwayCommands.rotation(transform: "flipped-90") == nil)
    }

    /// An output name cannot close the quotes and smuggle in a command of its own.
    @Test func quotesNames() {
        #expect(SwayCommands.quoted(#"x"; exec rm -rf ~; "\"#) == #""x\"; exec rm -rf ~; \"\\""#)
    }
}
