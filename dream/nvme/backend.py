"""Backend nvme (placeholder until the NVMe transport lands)."""
