import OrientationCore
import Testing

@Suite struct InterfaceOrientationTests {
    @Test func theLandscapesSwapAsApplesDo() {
        #expect(InterfaceOrientation(device: .landscapeLeft) == .landscapeRight)
        #expect(InterfaceOrientation(device: .landscapeRight) == .landscapeLeft)
        #expect(InterfaceOrientation(device: .portrait) == .portrait)
        #expect(InterfaceOrientation(device: .portraitUpsideDown) == .portraitUpsideDown)
        for flat in [Orientation.faceUp, .faceDown, .unknown] { #expect(InterfaceOrientation(device: flat) == nil) }
        for interface in InterfaceOrientation.allCases { #expect(InterfaceOrientation(device: interface.device) == interface) }
    }

    /// The device turned left (landscapeLeft) has its top edge on the left: content turns 90° clockwise.
    @Test func rotationIsTheW3CAngle() {
        #expect(InterfaceOrientation.portrait.rotation == 0)
        #expect(InterfaceOrientation.landscapeRight.rotation == 90)
        #expect(InterfaceOrientation.portraitUpsideDown.rotation == 180)
        #expect(InterfaceOrientation.landscapeLeft.rotation == 270)
    }

    @Test func aPortraitOnlyViewNeverTurns() {
        var view = InterfaceOrientationFollower(supported: [.portrait], driving: .landscapeLeft)
        #expect(view.current == .portrait)
        for device in Orientation.allCases { #expect(view.follow(device) == nil) }
        #expect(view.current == .portrait)
    }

    @Test func aPhotoViewerFollowsEveryInPlaneTurnButNotLyingFlat() {
        var viewer = InterfaceOrientationFollower(supported: InterfaceOrientation.allCases, driving: .portrait)
        #expect(viewer.follow(.landscapeLeft) == .portrait)
        #expect(viewer.current == .landscapeRight)
        #expect(viewer.follow(.faceUp) == nil)
        #expect(viewer.follow(.unknown) == nil)
        #expect(viewer.follow(.landscapeLeft) == nil, "no change, no event")
        #expect(viewer.follow(.portraitUpsideDown) == .landscapeRight)
        #expect(viewer.current == .portraitUpsideDown)
    }

    @Test func anUnsupportedStartFallsBackToTheFirstPreference() {
        let video = InterfaceOrientationFollower(supported: [.landscapeLeft, .landscapeRight], driving: .portrait)
        #expect(video.current == .landscapeLeft)
        let noReading = InterfaceOrientationFollower(supported: [.landscapeRight, .portrait], driving: nil)
        #expect(noReading.current == .landscapeRight)
    }

    @Test func aLandscapeOnlyViewSkipsPortrait() {
        var video = InterfaceOrientationFollower(supported: [.landscapeLeft, .landscapeRight], driving: .landscapeLeft)
        #expect(video.current == .landscapeRight)
        #expect(video.follow(.portrait) == nil)
        #expect(video.follow(.landscapeRight) == .landscapeRight)
        #expect(video.current == .landscapeLeft)
    }
}

@Suite struct ResumeTests {
    /// After an idle period the first sample decides at once, even against the last decision and
    /// even lying flat, instead of waiting out the settle time or the face delay.
    @Test func theFirstSampleAfterResumingDecidesAtOnce() {
        var classifier = Classifier()
        _ = replay(Array(repeating: gravityVector(angle: 0), count: 25), into: &classifier)
        #expect(classifier.orientation == .portrait)
        classifier.resume()
        let change = classifier.classify(AccelerometerSample(time: 60, acceleration: gravityVector(angle: 90)))
        #expect(change?.orientation == .landscapeLeft)
        classifier.resume()
        let flat = classifier.classify(AccelerometerSample(time: 120, acceleration: gravityVector(angle: 0, tilt: 90)))
        #expect(flat?.orientation == .faceUp)
    }

    /// Once decided, the classifier debounces again: a one-sample blip changes nothing.
    @Test func resumingDoesNotDisableTheDebounce() {
        var classifier = Classifier()
        _ = replay(Array(repeating: gravityVector(angle: 0), count: 25), into: &classifier)
        classifier.resume()
        #expect(classifier.classify(AccelerometerSample(time: 60, acceleration: gravityVector(angle: 0))) == nil)
        #expect(classifier.classify(AccelerometerSample(time: 60.04, acceleration: gravityVector(angle: 180))) == nil)
        #expect(classifier.orientation == .portrait)
    }
}
