"""Training of vision's learned parts. Not installed with the runtime package: it runs in its own venv
(`make train-dice`) and writes the ONNX files that `vision` reads."""
