"""The package's lowest layer: helpers every other module may import, which import nothing of tavli."""
