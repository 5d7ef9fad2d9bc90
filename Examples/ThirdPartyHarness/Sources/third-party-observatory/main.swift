import ArrayCopyBackend
import ObservationHarness
import ObservatoryCommandLine
import OpaqueArrayCopyBackend
import SlotArrayBackend

// The whole `observatory` tool over this package's backends, the built-in ones and the reference
// rows: `run`, `compare`, `history`, `table`, `conformance` and the rest. Cells run in fresh
// processes of this executable, so they find `slot-array` and the array copies too.
ObservatoryTool.main(
  backends: [
    MeasuredBackend(SlotArrayBackend()),
    MeasuredBackend(ArrayCopyStrategy()),
    MeasuredBackend(OpaqueArrayCopyStrategy()),
  ],
  includingBuiltIns: true)
