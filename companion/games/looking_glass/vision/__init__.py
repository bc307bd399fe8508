"""The staged Looking Glass reader (`reader.StagedReader`): plane, candidates, identify,
glass fit, each stage a typed result (`stages`)."""
