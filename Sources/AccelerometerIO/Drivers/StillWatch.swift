/// What the poller sleeps on while the display accelerometer is still, instead of reading it:
/// the chip's own motion interrupt (`MotionEventWatch`), or a HID sensor hub told to report only
/// changes (`HubChangeWatch`). `SensorLoop` decides when to arm it, wait on it and read; this does
/// the I/O. Confined to the sensor thread, as the libiio context is.
protocol StillWatch: AnyObject {
    /// Polls readable when the device may have moved; negative before `arm`.
    var descriptor: Int32 { get }
    /// What `SensorLoop` orders around it: whether the buffer is released before arming, and
    /// whether a read the watch did not ask for reads the raw attributes.
    var traits: SensorLoop.WatchTraits { get }
    /// What signals motion, for the log and `status`: "its motion event".
    var signal: String { get }
    func arm() throws(MotionWatchError)
    /// Called when `descriptor` is readable: how many motions it signalled (0: none after all).
    func takeEvents() throws(MotionWatchError) -> Int
    /// The watch ended without its signal (a safety read, a client's request): whatever the read
    /// finds must reach orientd as when the device moves (a hub reports every change again).
    func interrupted() throws(MotionWatchError)
    /// Disarms it until the next `arm` (nobody needs readings), or for good (the device closes).
    func close()
}
