print("vision-tasks")
