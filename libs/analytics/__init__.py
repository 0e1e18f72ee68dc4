"""What analysts run: the export of the event logs (JSON Lines or Parquet) and its filters."""
