import OrientctlCommand

// orientctl alone, as the tests and a developer's build run it. The installed orientctl is the
// orientd executable under this name (one copy of the Swift runtime for both: OrientdMain).
Orientctl.main()
