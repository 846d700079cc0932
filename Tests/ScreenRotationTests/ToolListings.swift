/// What each tool prints when it lists outputs or input devices, as the tools' sources print it,
/// for a laptop with its panel and one external monitor.
enum ToolListings {
    /// `hyprctl monitors` (Hyprland 0.4x: a `Monitor NAME (ID N):` header, tab-indented fields).
    static let hyprctlMonitors = """
        Monitor eDP-1 (ID 0):
        \t2880x1800@90.00100 at 0x0
        \tdescription: Samsung Display Corp. 0x4152
        \tmake: Samsung Display Corp.
        \tmodel: 0x4152
        \tphysical size (mm): 300x190
        \tserial: 
        \tactive workspace: 1 (1)
        \tspecial workspace: 0 ()
        \treserved: 0 45 0 0
        \tscale: 1.50
        \ttransform: 0
        \tfocused: yes
        \tdpmsStatus: 1
        \tvrr: false
        \tdisabled: false
        \tcurrentFormat: XRGB8888
        \tmirrorOf: none
        \tavailableModes: 2880x1800@90.00Hz 2880x1800@60.00Hz

        Monitor DP-2 (ID 1):
        \t2560x1440@143.91200 at -2560x0
        \tdescription: Dell Inc. DELL S2721DGF 4P1Q3K3
        \tmake: Dell Inc.
        \tmodel: DELL S2721DGF
        \tserial: 4P1Q3K3
        \tactive workspace: 2 (2)
        \tspecial workspace: 0 ()
        \treserved: 0 0 0 0
        \tscale: 1.00
        \ttransform: 1
        \tfocused: no
        \tdpmsStatus: 1
        \tvrr: false


        """

    /// `niri msg outputs` (`Output "MAKE MODEL SERIAL" (CONNECTOR)`, then indented details).
    static let niriOutputs = """
        Output "Sharp Corporation 0x1516 Unknown" (eDP-1)
          Current mode: 2880x1920 @ 120.000 Hz (preferred)
          Variable refresh rate: not supported
          Physical size: 290x190 mm
          Logical position: 0, 0
          Logical size: 1920x1280
          Scale: 1.5
          Transform: 90° counter-clockwise
          Available modes:
            2880x1920@120.000 (current, preferred)
            2880x1920@60.000

        Output "Dell Inc. DELL U2720Q 4K0M1234" (DP-3)
          Disabled
          Variable refresh rate: not supported
          Physical size: 600x340 mm
          Available modes:
            3840x2160@60.000 (preferred)

        """

    /// `wlr-randr` (0.4: `NAME "DESCRIPTION"` at the margin, details indented).
    static let wlrRandr = """
        eDP-1 "Sharp Corporation 0x14D1 (eDP-1)"
          Make: Sharp Corporation
          Model: 0x14D1
          Serial: (null)
          Physical size: 290x170 mm
          Enabled: yes
          Modes:
            1920x1080 px, 60.002998 Hz (preferred, current)
          Position: 0,0
          Transform: normal
          Scale: 1.000000
          Adaptive Sync: disabled
        HDMI-A-1 "Dell Inc. DELL P2419H 8H2X1Y3 (HDMI-A-1)"
          Make: Dell Inc.
          Model: DELL P2419H
          Serial: 8H2X1Y3
          Physical size: 530x300 mm
          Enabled: no
          Modes:
            1920x1080 px, 60.000000 Hz (preferred)

        """

    /// `xrandr --query`.
    static let xrandrQuery = """
        Screen 0: minimum 320 x 200, current 4480 x 1440, maximum 16384 x 16384
        eDP-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 309mm x 174mm
           1920x1080     60.01*+  59.97    59.96    59.93  
           1680x1050     59.95    59.88  
        HDMI-1 disconnected (normal left inverted right x axis y axis)
        DP-1 connected 2560x1440+1920+0 (normal left inverted right x axis y axis) 597mm x 336mm
           2560x1440     59.95*+
        DP-2 disconnected (normal left inverted right x axis y axis)

        """

    /// `xinput list --name-only` on a convertible with a Wacom panel and an ELAN touchscreen.
    static let xinputNames = """
        Virtual core pointer
        Virtual core XTEST pointer
        Wacom HID 5218 Pen stylus
        Wacom HID 5218 Finger touch
        Wacom HID 5218 Pen eraser
        ELAN Touchscreen
        SynPS/2 Synaptics TouchPad
        TPPS/2 IBM TrackPoint
        Logitech T650 Touchpad
        ELAN2514:00 04F3:2817
        Virtual core keyboard
        Virtual core XTEST keyboard
        Power Button
        Video Bus
        AT Translated Set 2 keyboard
        ThinkPad Extra Buttons

        """
}
