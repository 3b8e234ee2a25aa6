// The file a fake checker "grades" (tools/CMakeLists.txt, the grade.* tests of a checker that
// cannot run here); never compiled. As shipped, it still throws tutorial::Todo: not started.
long long fake_sum(const int* values, int n) {
  // TODO: add the values.
  throw tutorial::Todo("write fake_sum in tools/testing/fake_unstarted.cu");
}
