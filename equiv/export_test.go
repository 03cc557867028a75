package equiv

// GuardPages tells the external tests whether the guard method can run.
var GuardPages = guardSupported
