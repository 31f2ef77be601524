"""The app's screens, and the bases the monitor and driving screens share."""
