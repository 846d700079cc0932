import Testing

/// Every integration test starts real processes (orientd, orientctl) on an emulated sensor and
/// measures delays in wall-clock time, so they run one at a time on the 2-core machines.
@Suite(.serialized, .onItsOwnThread) enum IntegrationTests {}
