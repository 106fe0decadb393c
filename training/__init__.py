"""Scripts that train the photo reader's networks (need the optional `train` extra: torch, onnx)."""
