// The file a fake checker "grades" (tools/CMakeLists.txt, the grade.* tests of a checker that
// cannot run here); never compiled. Started: a throw commented out, or behind a condition, does
// not make the grader call it not started.
long long fake_sum(const int* values, int n) {
  // throw tutorial::Todo("write fake_sum in tools/testing/fake_started.cu");
  if (n < 0) throw tutorial::Todo("a condition the grader does not read");
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += values[i];
  return sum;
}
