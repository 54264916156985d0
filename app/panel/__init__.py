"""The Qt control panel, `clickwright app`: a task box, the screen as the agent sees it, a step
timeline, pause / step / stop, approvals and questions, a sandbox desktop, and past runs."""
