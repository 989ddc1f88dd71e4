"""Runtime, arrays, kernels, stats, backend registry."""
