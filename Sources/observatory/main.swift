import ObservatoryCommandLine

// The `observatory` command over the built-in backends: the whole tool is a library, so that a
// third party's executable runs the same commands over its own backends.
ObservatoryTool.main()
