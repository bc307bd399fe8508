"""The staged Looking Glass reader (`reader.StagedReader`): plane, candidates, identify,
glass fit (`stages`), then the glass as a lattice whose free slots are named by their upper
half (`slots`), each stage a typed result."""
