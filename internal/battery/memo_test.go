package battery

// forgetMemos clears what the memo-by-address bugs remember. Their memory
// is a package variable, which outlives the suite run that filled it: in
// the next run of the same bug in this process (TestMechanisms runs each
// with its mechanism, then without; TestBattery before it), a buffer that
// happens to lie where the last run's did, with the same length, would
// get the last run's answer, and the bug would be caught, or escape, by
// what an earlier run left. Each run starts from a bug that remembers
// nothing, as in a process of its own.
func forgetMemos() {
	memo.Lock()
	memo.occupied = false
	memo.Unlock()
	headerMemo.Lock()
	headerMemo.present = false
	headerMemo.Unlock()
	u8Memo.Lock()
	u8Memo.occupied = false
	u8Memo.Unlock()
	copyMemo.Lock()
	copyMemo.out = nil
	copyMemo.Unlock()
	writeMemo.Lock()
	writeMemo.occupied = false
	writeMemo.Unlock()
}
