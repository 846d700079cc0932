import Testing

/// orientd beside iio-sensor-proxy 3.0 on the same emulated devices: the device zoo, the
/// incumbent's own scenarios, monitor-sensor's transcripts. They compare what the two decide and
/// time nothing (every wait is for a state, with a generous deadline), so they run one at a time
/// among themselves but beside the serialized `IntegrationTests`, which measure delays: the
/// suite's wall time is then the longer of the two, not their sum.
@Suite(.serialized, .onItsOwnThread) enum IncumbentComparisons {}
