"""What every room runs on: the event bus between processes, the limiter and token
buckets, the work queues, metrics and the event loop's watchdog.
"""
