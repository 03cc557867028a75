package equiv

import "testing"

// TestMechanismIndexes: the harness counts each mechanism at its index in
// Mechanisms.
func TestMechanismIndexes(t *testing.T) {
	want := map[int]Mechanism{iSpare: MechSpare, iReadOnly: MechReadOnly, iNeighbours: MechNeighbours, iGuard: MechGuard,
		iPoison: MechPoison, iReuse: MechReuse, iExactAppend: MechExactAppend, iKeep: MechKeep, iWatchdog: MechWatchdog,
		iConcurrent: MechConcurrent, iOverlap: MechOverlap, iScale: MechScale, iHistory: MechHistory, iIOEdges: MechIOEdges}
	if len(want) != numMechanisms || len(Mechanisms) != numMechanisms {
		t.Fatalf("%d indexes, %d mechanisms, numMechanisms %d", len(want), len(Mechanisms), numMechanisms)
	}
	for i, m := range want {
		if Mechanisms[i] != m {
			t.Errorf("index %d counts %s, but Mechanisms[%d] is %s", i, m, i, Mechanisms[i])
		}
	}
}
