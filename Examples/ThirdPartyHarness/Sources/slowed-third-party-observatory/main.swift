import ObservationHarness
import ObservatoryCommandLine
import SlowedSlotArrayBackend

// The whole tool over `slot-array` slowed down, under its own name: the run of a later commit
// in the history CI keeps across runs, where `compare` must find the regression.
ObservatoryTool.main(backends: [MeasuredBackend(SlowedSlotArrayBackend())], includingBuiltIns: true)
